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
            _marshal::stack::field_of::<u64>(),
            _marshal::stack::field_of::<f64>(),
            _marshal::stack::field_of::<&'a str>(),
            _marshal::stack::field_of::<Vec<String>>(),
            _marshal::stack::field_of::<Side>(),
        ],
    );
    #[inline]
    fn decode(__r: &mut _marshal::Reader<'__de>) -> _marshal::Decoded<Self> {
        let mut __sub = ::core::option::Option::None;
        let __r = _marshal::exact_reader::<Self>(__r, &mut __sub)?;
        ::core::result::Result::Ok(Self {
            id: _marshal::Unmarshal::decode(__r)?,
            price: _marshal::Unmarshal::decode(__r)?,
            symbol: _marshal::Unmarshal::decode(__r)?,
            tags: _marshal::Unmarshal::decode(__r)?,
            side: _marshal::Unmarshal::decode(__r)?,
        })
    }
}
