use ::marshal::__private as _marshal;
#[automatically_derived]
impl _marshal::Marshal for Side {
    const FIXED_LEN: ::core::option::Option<::core::primitive::usize> = _marshal::fixed_len(
        4usize,
        <Self as _marshal::Marshal>::__VARIANT_FIXED,
    );
    const MAX_LEN: ::core::option::Option<::core::primitive::usize> = _marshal::max_len(
        4usize,
        &[&[], &[], &[<f64 as _marshal::Marshal>::MAX_LEN]],
    );
    const FINGERPRINT: ::core::primitive::u64 = _marshal::fp::variants(
        4usize,
        &[(0, &[]), (1, &[]), (2, &[<f64 as _marshal::Marshal>::FINGERPRINT])],
    );
    const __VARIANT_FIXED: &'static [::core::option::Option<::core::primitive::usize>] = &[
        _marshal::sum(&[]),
        _marshal::sum(&[]),
        _marshal::sum(&[<f64 as _marshal::Marshal>::FIXED_LEN]),
    ];
    #[inline]
    fn encoded_len(&self) -> ::core::primitive::usize {
        if let ::core::option::Option::Some(__n) = <Self as _marshal::Marshal>::FIXED_LEN {
            return __n;
        }
        match self {
            Self::Buy => _marshal::Len::new(4usize),
            Self::Sell => _marshal::Len::new(4usize),
            Self::Limit { max: __f0, .. } => {
                <f64 as _marshal::Marshal>::__add_len(__f0, _marshal::Len::new(4usize))
            }
        }
            .get()
    }
    #[inline]
    fn encode(&self, __w: &mut _marshal::Writer<'_>) -> _marshal::Encoded {
        match self {
            Self::Buy => _marshal::Writer::put_array(__w, [0u8, 0u8, 0u8, 0u8])?,
            Self::Sell => _marshal::Writer::put_array(__w, [1u8, 0u8, 0u8, 0u8])?,
            Self::Limit { max: __f0, .. } => {
                let __fields = |__w: &mut _marshal::Writer<'_>| -> _marshal::Encoded {
                    <f64 as _marshal::Marshal>::encode(__f0, __w)
                };
                _marshal::encode_variant(
                    __w,
                    2u32.to_le_bytes(),
                    const { <Self as _marshal::Marshal>::__VARIANT_FIXED[2usize] },
                    __fields,
                )?
            }
        }
        ::core::result::Result::Ok(())
    }
}
#[automatically_derived]
impl<
    __E: _marshal::Endian,
    __I: _marshal::IntEncoding,
> _marshal::MarshalIn<_marshal::Encoding<__E, __I>> for Side {
    #[inline]
    fn encoded_len_in(&self) -> ::core::primitive::usize {
        match self {
            Self::Buy => _marshal::len_in::<__E, __I, _>(&0u32),
            Self::Sell => _marshal::len_in::<__E, __I, _>(&1u32),
            Self::Limit { max: __f0, .. } => {
                _marshal::len_in::<__E, __I, _>(&2u32)
                    .saturating_add(_marshal::len_in::<__E, __I, _>(__f0))
            }
        }
    }
    #[inline]
    fn encode_in(&self, __w: &mut _marshal::Writer<'_>) -> _marshal::Encoded {
        match self {
            Self::Buy => {
                _marshal::encode_in::<__E, __I, ::core::primitive::u32>(&0u32, __w)?;
            }
            Self::Sell => {
                _marshal::encode_in::<__E, __I, ::core::primitive::u32>(&1u32, __w)?;
            }
            Self::Limit { max: __f0, .. } => {
                _marshal::encode_in::<__E, __I, ::core::primitive::u32>(&2u32, __w)?;
                _marshal::encode_in::<__E, __I, _>(__f0, __w)?;
            }
        }
        _marshal::Ok(())
    }
}
