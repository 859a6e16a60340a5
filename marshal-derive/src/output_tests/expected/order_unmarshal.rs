use ::marshal::__private as _marshal;
#[automatically_derived]
impl<'__de: 'a, 'a> _marshal::Unmarshal<'__de> for Order<'a> {
    const MIN_LEN: ::core::primitive::usize = _marshal::min_sum(
        &[
            <u64 as _marshal::Unmarshal<'__de>>::MIN_LEN,
            <f64 as _marshal::Unmarshal<'__de>>::MIN_LEN,
            <&'a str as _marshal::Unmarshal<'__de>>::MIN_LEN,
            <Vec<String> as _marshal::Unmarshal<'__de>>::MIN_LEN,
            <Side as _marshal::Unmarshal<'__de>>::MIN_LEN,
        ],
    );
    const MIN_LEN_IS_EXACT: ::core::primitive::bool = <u64 as _marshal::Unmarshal<
        '__de,
    >>::MIN_LEN_IS_EXACT && <f64 as _marshal::Unmarshal<'__de>>::MIN_LEN_IS_EXACT
        && <&'a str as _marshal::Unmarshal<'__de>>::MIN_LEN_IS_EXACT
        && <Vec<String> as _marshal::Unmarshal<'__de>>::MIN_LEN_IS_EXACT
        && <Side as _marshal::Unmarshal<'__de>>::MIN_LEN_IS_EXACT;
    #[doc(hidden)]
    const __DECODE_STACK: ::core::primitive::usize = _marshal::stack::fields(
        &[
            <u64 as _marshal::Unmarshal<'__de>>::__STACK_FIELD,
            <f64 as _marshal::Unmarshal<'__de>>::__STACK_FIELD,
            <&'a str as _marshal::Unmarshal<'__de>>::__STACK_FIELD,
            <Vec<String> as _marshal::Unmarshal<'__de>>::__STACK_FIELD,
            <Side as _marshal::Unmarshal<'__de>>::__STACK_FIELD,
        ],
    );
    #[inline]
    fn decode(__r: &mut _marshal::Reader<'__de>) -> _marshal::Decoded<Self> {
        let mut __sub = ::core::option::Option::None;
        let __r = _marshal::exact_reader::<Self>(__r, &mut __sub)?;
        ::core::result::Result::Ok(Self {
            id: <u64 as _marshal::Unmarshal<'__de>>::decode(__r)?,
            price: <f64 as _marshal::Unmarshal<'__de>>::decode(__r)?,
            symbol: <&'a str as _marshal::Unmarshal<'__de>>::decode(__r)?,
            tags: <Vec<String> as _marshal::Unmarshal<'__de>>::decode(__r)?,
            side: <Side as _marshal::Unmarshal<'__de>>::decode(__r)?,
        })
    }
}
