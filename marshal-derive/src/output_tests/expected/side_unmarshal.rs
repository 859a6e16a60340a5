use ::marshal::__private as _marshal;
#[automatically_derived]
impl<'__de> _marshal::Unmarshal<'__de> for Side {
    const __VARIANTS: _marshal::Variants<'__de> = _marshal::variants(
        &[
            (0u32, &[]),
            (1u32, &[]),
            (2u32, &[<f64 as _marshal::In<'__de>>::__FIELD.at(&["Side::Limit", "max"])]),
        ],
    );
    const MIN_LEN: ::core::primitive::usize = Self::__PARTS.min;
    const MIN_LEN_IS_EXACT: ::core::primitive::bool = Self::__PARTS.exact;
    const __DECODE_STACK: ::core::primitive::usize = Self::__PARTS.stack;
    #[inline]
    fn decode(__r: &mut _marshal::Reader<'__de>) -> _marshal::Decoded<Self> {
        let mut __sub = ::core::option::Option::None;
        let __r = _marshal::exact_reader::<Self>(__r, &mut __sub)?;
        let __at = _marshal::Reader::position(__r);
        let __tag = <::core::primitive::u32 as _marshal::Unmarshal<'__de>>::decode(__r)?;
        match __tag {
            0u32 => ::core::result::Result::Ok(Self::Buy {}),
            1u32 => ::core::result::Result::Ok(Self::Sell {}),
            2u32 => {
                _marshal::variant(
                    __r,
                    |__r| ::core::result::Result::Ok(Self::Limit {
                        max: <f64 as _marshal::Unmarshal<'__de>>::decode(__r)?,
                    }),
                )
            }
            _ => _marshal::invalid_tag(__tag, &"Side", __at),
        }
    }
}
#[automatically_derived]
impl<
    '__de,
    __E: _marshal::Endian,
    __I: _marshal::IntEncoding,
> _marshal::UnmarshalIn<'__de, _marshal::Encoding<__E, __I>> for Side {
    const MIN_LEN_IN: ::core::primitive::usize = _marshal::min_in::<
        __E,
        __I,
        ::core::primitive::u32,
    >();
    #[inline]
    fn decode_in(__r: &mut _marshal::Reader<'__de>) -> _marshal::Decoded<Self> {
        let __at = __r.position();
        match _marshal::decode_in::<__E, __I, ::core::primitive::u32>(__r)? {
            0u32 => _marshal::Ok(Self::Buy),
            1u32 => _marshal::Ok(Self::Sell),
            2u32 => {
                _marshal::variant(
                    __r,
                    |__r| _marshal::Ok(Self::Limit {
                        max: _marshal::decode_in::<__E, __I, _>(__r)?,
                    }),
                )
            }
            __tag => _marshal::invalid_tag(__tag, &"Side", __at),
        }
    }
}
