//! Validated string scalars: a newtype that checks its value inside the
//! deserializer's visitor, so a bad value is reported at its own
//! line:column (an error raised after `deserialize` returns would only
//! carry the position of the enclosing mapping). One macro for every such
//! type of lane's (the lane version here, the lane file's scalars in
//! lane-file).

/// Implements `Deserialize` (through a string visitor), `Serialize` (as the
/// string), `JsonSchema` (the given schema) and `Display` for a newtype
/// with `fn parse(&str) -> Result<Self, String>` and `fn as_str(&self) ->
/// &str`. The crate using it depends on `serde` and `schemars`.
#[macro_export]
macro_rules! string_scalar {
    ($ty:ident, $expecting:expr, $schema:tt) => {
        impl<'de> ::serde::Deserialize<'de> for $ty {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl ::serde::de::Visitor<'_> for V {
                    type Value = $ty;
                    fn expecting(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                        f.write_str($expecting)
                    }
                    fn visit_str<E: ::serde::de::Error>(self, s: &str) -> Result<$ty, E> {
                        $ty::parse(s).map_err(E::custom)
                    }
                    // YAML reads `0.93` or `2` as numbers; say what was meant.
                    fn visit_f64<E: ::serde::de::Error>(self, v: f64) -> Result<$ty, E> {
                        Err(E::custom(format!(
                            "expected {}, found the number {v} (quote it)",
                            $expecting
                        )))
                    }
                    fn visit_u64<E: ::serde::de::Error>(self, v: u64) -> Result<$ty, E> {
                        $ty::parse(&v.to_string()).map_err(E::custom)
                    }
                    fn visit_i64<E: ::serde::de::Error>(self, v: i64) -> Result<$ty, E> {
                        $ty::parse(&v.to_string()).map_err(E::custom)
                    }
                }
                d.deserialize_str(V)
            }
        }

        impl ::serde::Serialize for $ty {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl ::schemars::JsonSchema for $ty {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                stringify!($ty).into()
            }
            fn json_schema(_: &mut ::schemars::SchemaGenerator) -> ::schemars::Schema {
                ::schemars::json_schema!($schema)
            }
        }

        impl ::std::fmt::Display for $ty {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}
