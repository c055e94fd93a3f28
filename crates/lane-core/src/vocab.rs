//! A word a foreign file (a report) uses for one of lane's vocabularies:
//! one lane knows, or the raw text of one it does not. The vocabulary stays
//! one type ([`MintStatus`](crate::MintStatus), [`Recipe`](crate::Recipe));
//! an unknown word is kept to be shown, never guessed at.

use serde::{Serialize, Serializer};

/// One of lane's closed vocabularies.
pub trait Vocabulary: Sized + Copy {
    /// The word for `s`, when lane knows it.
    fn parse(s: &str) -> Option<Self>;
    /// The word as written.
    fn as_str(self) -> &'static str;
}

impl Vocabulary for crate::MintStatus {
    fn parse(s: &str) -> Option<Self> {
        crate::MintStatus::parse(s)
    }
    fn as_str(self) -> &'static str {
        crate::MintStatus::as_str(self)
    }
}

impl Vocabulary for crate::Recipe {
    fn parse(s: &str) -> Option<Self> {
        crate::Recipe::parse(s)
    }
    fn as_str(self) -> &'static str {
        crate::Recipe::as_str(self)
    }
}

/// A word as a foreign file wrote it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Named<T> {
    /// A word lane knows.
    Known(T),
    /// One this version of lane does not know, as written (raw: escape it
    /// where it is shown).
    Unknown(String),
}

impl<T: Vocabulary> Named<T> {
    /// Reads a word.
    pub fn parse(s: &str) -> Named<T> {
        T::parse(s).map_or_else(|| Named::Unknown(s.to_owned()), Named::Known)
    }

    /// The word as written.
    pub fn as_str(&self) -> &str {
        match self {
            Named::Known(t) => t.as_str(),
            Named::Unknown(s) => s,
        }
    }

    /// The word, when lane knows it.
    pub fn known(&self) -> Option<T> {
        match self {
            Named::Known(t) => Some(*t),
            Named::Unknown(_) => None,
        }
    }
}

impl<T: Vocabulary> Serialize for Named<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::Named;
    use crate::MintStatus;

    #[test]
    fn an_unknown_word_is_kept_as_written() {
        let n: Named<MintStatus> = Named::parse("exploded");
        assert_eq!(n, Named::Unknown("exploded".into()));
        assert_eq!(n.as_str(), "exploded");
        assert_eq!(n.known(), None);
        let m: Named<MintStatus> = Named::parse("minted");
        assert_eq!(m.known(), Some(MintStatus::Minted));
        assert_eq!(serde_json::to_string(&m).unwrap(), "\"minted\"");
    }
}
