use ::marshal::__private as _marshal;
#[automatically_derived]
impl<'a> _marshal::Marshal for Order<'a> {
    const __SIZES: _marshal::Sizes = _marshal::Sizes::sum(
        &[
            <u64 as _marshal::Marshal>::__SIZES,
            <f64 as _marshal::Marshal>::__SIZES,
            <&'a str as _marshal::Marshal>::__SIZES,
            <Vec<String> as _marshal::Marshal>::__SIZES,
            <Side as _marshal::Marshal>::__SIZES,
        ],
    );
    const FIXED_LEN: ::core::option::Option<::core::primitive::usize> = Self::__SIZES
        .fixed;
    const MAX_LEN: ::core::option::Option<::core::primitive::usize> = Self::__SIZES.max;
    const FINGERPRINT: ::core::primitive::u64 = _marshal::fp::tuple(
        &[
            <u64 as _marshal::Marshal>::FINGERPRINT,
            <f64 as _marshal::Marshal>::FINGERPRINT,
            <&'a str as _marshal::Marshal>::FINGERPRINT,
            <Vec<String> as _marshal::Marshal>::FINGERPRINT,
            <Side as _marshal::Marshal>::FINGERPRINT,
        ],
    );
    #[inline]
    fn encoded_len(&self) -> ::core::primitive::usize {
        let __len = _marshal::Len::new(0usize);
        let __len = <u64 as _marshal::Marshal>::__add_len(&self.id, __len);
        let __len = <f64 as _marshal::Marshal>::__add_len(&self.price, __len);
        let __len = <&'a str as _marshal::Marshal>::__add_len(&self.symbol, __len);
        let __len = <Vec<String> as _marshal::Marshal>::__add_len(&self.tags, __len);
        let __len = <Side as _marshal::Marshal>::__add_len(&self.side, __len);
        __len.get()
    }
    #[inline]
    fn encode(&self, __w: &mut _marshal::Writer<'_>) -> _marshal::Encoded {
        let __fields = |__w: &mut _marshal::Writer<'_>| -> _marshal::Encoded {
            <u64 as _marshal::Marshal>::encode(&self.id, __w)?;
            <f64 as _marshal::Marshal>::encode(&self.price, __w)?;
            <&'a str as _marshal::Marshal>::encode(&self.symbol, __w)?;
            <Vec<String> as _marshal::Marshal>::encode(&self.tags, __w)?;
            <Side as _marshal::Marshal>::encode(&self.side, __w)
        };
        _marshal::encode_exact::<Self>(__w, __fields)
    }
}
#[automatically_derived]
impl<
    'a,
    __E: _marshal::Endian,
    __I: _marshal::IntEncoding,
> _marshal::MarshalIn<_marshal::Encoding<__E, __I>> for Order<'a>
where
    &'a str: _marshal::MarshalIn<_marshal::Encoding<__E, __I>>,
    Side: _marshal::MarshalIn<_marshal::Encoding<__E, __I>>,
{
    #[inline]
    fn encoded_len_in(&self) -> ::core::primitive::usize {
        _marshal::len_in::<
            __E,
            __I,
            _,
        >(&(&self.id, &self.price, &self.symbol, &self.tags, &self.side))
    }
    #[inline]
    fn encode_in(&self, __w: &mut _marshal::Writer<'_>) -> _marshal::Encoded {
        _marshal::encode_in::<
            __E,
            __I,
            _,
        >(&(&self.id, &self.price, &self.symbol, &self.tags, &self.side), __w)
    }
}
