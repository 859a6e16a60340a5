use ::marshal::__private as _marshal;
#[automatically_derived]
impl<'__de: 'a, 'a> _marshal::Unmarshal<'__de> for Order<'a> {
    const __FIELDS: &'__de [_marshal::Named<'__de>] = &[
        <u64 as _marshal::In<'__de>>::__FIELD.at(&["Order", "id"]),
        <f64 as _marshal::In<'__de>>::__FIELD.at(&["Order", "price"]),
        <&'a str as _marshal::In<'__de>>::__FIELD.at(&["Order", "symbol"]),
        <Vec<String> as _marshal::In<'__de>>::__FIELD.at(&["Order", "tags"]),
        <Side as _marshal::In<'__de>>::__FIELD.at(&["Order", "side"]),
    ];
    const MIN_LEN: ::core::primitive::usize = Self::__PARTS.min;
    const MIN_LEN_IS_EXACT: ::core::primitive::bool = Self::__PARTS.exact;
    const __DECODE_STACK: ::core::primitive::usize = Self::__PARTS.stack;
    #[inline]
    fn decode(__r: &mut _marshal::Reader<'__de>) -> _marshal::Decoded<Self> {
        _marshal::decode_struct(__r)
    }
    const __IN_PLACE: ::core::primitive::bool = true;
    #[inline]
    fn __decode_in<'__p>(
        __r: &mut _marshal::Reader<'__de>,
        __place: _marshal::Place<'__p, Self>,
    ) -> _marshal::Decoded<_marshal::Built<'__p, Self>> {
        let __fields = || (
            <u64 as _marshal::In<'__de>>::__at(_marshal::offset_of!(Self, id)),
            <f64 as _marshal::In<'__de>>::__at(_marshal::offset_of!(Self, price)),
            <&'a str as _marshal::In<'__de>>::__at(_marshal::offset_of!(Self, symbol)),
            <Vec<String> as _marshal::In<'__de>>::__at(_marshal::offset_of!(Self, tags)),
            <Side as _marshal::In<'__de>>::__at(_marshal::offset_of!(Self, side)),
        );
        _marshal::struct_in(__r, __place, unsafe { _marshal::all_fields(__fields) })
    }
}
#[automatically_derived]
impl<
    '__de: 'a,
    'a,
    __E: _marshal::Endian,
    __I: _marshal::IntEncoding,
> _marshal::UnmarshalIn<'__de, _marshal::Encoding<__E, __I>> for Order<'a>
where
    &'a str: _marshal::UnmarshalIn<'__de, _marshal::Encoding<__E, __I>>,
    Side: _marshal::UnmarshalIn<'__de, _marshal::Encoding<__E, __I>>,
{
    const MIN_LEN_IN: ::core::primitive::usize = _marshal::min_in::<
        __E,
        __I,
        (u64, f64, &'a str, Vec<String>, Side),
    >();
    #[inline]
    fn decode_in(__r: &mut _marshal::Reader<'__de>) -> _marshal::Decoded<Self> {
        if let ::core::option::Option::Some(__value) = _marshal::from_memory_in::<
            __E,
            __I,
            Self,
        >(__r)? {
            return _marshal::Ok(__value);
        }
        _marshal::Ok({
            let (__f0, __f1, __f2, __f3, __f4) = _marshal::decode_in::<
                __E,
                __I,
                _,
            >(__r)?;
            Self {
                id: __f0,
                price: __f1,
                symbol: __f2,
                tags: __f3,
                side: __f4,
            }
        })
    }
    #[inline]
    fn __decode_in_place<'__p>(
        __r: &mut _marshal::Reader<'__de>,
        __place: _marshal::Place<'__p, Self>,
    ) -> _marshal::Decoded<_marshal::Built<'__p, Self>> {
        let __fields = || (
            _marshal::at_in::<__E, __I, u64>(_marshal::offset_of!(Self, id)),
            _marshal::at_in::<__E, __I, f64>(_marshal::offset_of!(Self, price)),
            _marshal::at_in::<__E, __I, &'a str>(_marshal::offset_of!(Self, symbol)),
            _marshal::at_in::<__E, __I, Vec<String>>(_marshal::offset_of!(Self, tags)),
            _marshal::at_in::<__E, __I, Side>(_marshal::offset_of!(Self, side)),
        );
        let __fields = unsafe { _marshal::all_fields(__fields) };
        _marshal::struct_in_dialect::<__E, __I, _, _, _>(__r, __place, __fields)
    }
}
