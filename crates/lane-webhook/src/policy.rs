//! Who may run a `/lane` command: the commenter's relation to the
//! repository as GitHub reports it (`comment.author_association`), or
//! their permission on the repository as GitHub's API answers it
//! ([`Permission`]). Asking the API is the server's (it needs the
//! network); reading the answer and weighing it is here.

use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

/// GitHub's `author_association` values, and any other kept as written.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AuthorAssociation {
    /// `OWNER`: the owner of the repository.
    Owner,
    /// `MEMBER`: a member of the organization that owns the repository.
    Member,
    /// `COLLABORATOR`: invited to collaborate on the repository.
    Collaborator,
    /// `CONTRIBUTOR`: has previously committed to the repository.
    Contributor,
    /// `FIRST_TIME_CONTRIBUTOR`: has not previously committed to the repository.
    FirstTimeContributor,
    /// `FIRST_TIMER`: has not previously committed to GitHub.
    FirstTimer,
    /// `MANNEQUIN`: a placeholder for an unclaimed user.
    Mannequin,
    /// `NONE`: no association with the repository.
    None,
    /// A word this version of lane does not know, as written (raw: escape
    /// it where it is shown). No policy allows it.
    Unknown(String),
}

/// Every word GitHub uses, with its value.
const KNOWN: [(&str, AuthorAssociation); 8] = [
    ("OWNER", AuthorAssociation::Owner),
    ("MEMBER", AuthorAssociation::Member),
    ("COLLABORATOR", AuthorAssociation::Collaborator),
    ("CONTRIBUTOR", AuthorAssociation::Contributor),
    (
        "FIRST_TIME_CONTRIBUTOR",
        AuthorAssociation::FirstTimeContributor,
    ),
    ("FIRST_TIMER", AuthorAssociation::FirstTimer),
    ("MANNEQUIN", AuthorAssociation::Mannequin),
    ("NONE", AuthorAssociation::None),
];

/// The known words, for messages.
const KNOWN_WORDS: &str =
    "OWNER, MEMBER, COLLABORATOR, CONTRIBUTOR, FIRST_TIME_CONTRIBUTOR, FIRST_TIMER, MANNEQUIN, NONE";

impl AuthorAssociation {
    /// Reads GitHub's word (exactly as GitHub writes it, upper case); any
    /// other word is [`AuthorAssociation::Unknown`].
    pub fn parse(word: &str) -> AuthorAssociation {
        Self::known(word).unwrap_or_else(|| AuthorAssociation::Unknown(word.to_owned()))
    }

    fn known(word: &str) -> Option<AuthorAssociation> {
        KNOWN
            .iter()
            .find(|(w, _)| *w == word)
            .map(|(_, a)| a.clone())
    }

    /// The word as GitHub writes it (an unknown one as written).
    pub fn as_str(&self) -> &str {
        match self {
            AuthorAssociation::Unknown(word) => word,
            known => KNOWN
                .iter()
                .find(|(_, a)| a == known)
                .map(|(w, _)| *w)
                .expect("every known association has its word"),
        }
    }
}

/// Why a policy's configuration is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PolicyError {
    /// The list names no association: nobody could run a command.
    #[error("the list of author associations allowed to run /lane commands is empty")]
    Empty,
    /// An item of the list is empty (`OWNER,,MEMBER`).
    #[error("item {position} of the author association list is empty")]
    EmptyItem {
        /// 1-based position in the list.
        position: usize,
    },
    /// A word that is not one of GitHub's associations.
    #[error("unknown author association `{word}`: expected one of {KNOWN_WORDS}")]
    UnknownAssociation {
        /// The word as configured.
        word: String,
    },
    /// A word listed twice.
    #[error("author association `{word}` is listed twice")]
    Duplicate {
        /// The word.
        word: String,
    },
}

/// A user's permission on a repository, lowest first, as GitHub's
/// `GET /repos/{owner}/{repo}/collaborators/{username}/permission` names it
/// (`role_name`; `permission` when the role is a custom one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Permission {
    /// No access (not a collaborator).
    None,
    /// `read`.
    Read,
    /// `triage`.
    Triage,
    /// `write`.
    Write,
    /// `maintain`.
    Maintain,
    /// `admin`.
    Admin,
}

const PERMISSIONS: [(&str, Permission); 6] = [
    ("none", Permission::None),
    ("read", Permission::Read),
    ("triage", Permission::Triage),
    ("write", Permission::Write),
    ("maintain", Permission::Maintain),
    ("admin", Permission::Admin),
];

/// Why GitHub's permission answer could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PermissionError {
    /// Not a JSON object.
    #[error("GitHub's permission answer is not JSON: {0}")]
    NotJson(String),
    /// Neither `role_name` nor `permission` is a permission lane knows.
    #[error("GitHub's permission answer names no permission lane knows (expected role_name or permission: none, read, triage, write, maintain, admin)")]
    Unknown,
}

impl Permission {
    /// Reads GitHub's word (`write`), exactly as written.
    pub fn parse(word: &str) -> Option<Permission> {
        PERMISSIONS
            .iter()
            .find(|(w, _)| *w == word)
            .map(|(_, p)| *p)
    }

    /// The word as GitHub writes it.
    pub fn as_str(self) -> &'static str {
        PERMISSIONS
            .iter()
            .find(|(_, p)| *p == self)
            .map(|(w, _)| *w)
            .expect("every permission has its word")
    }

    /// Reads GitHub's answer: its `role_name` (which names `maintain` and
    /// `triage`), else its `permission` (a custom role's base).
    pub fn from_answer(body: &[u8]) -> Result<Permission, PermissionError> {
        let v: serde_json::Value =
            serde_json::from_slice(body).map_err(|e| PermissionError::NotJson(e.to_string()))?;
        Permission::from_value(&v)
    }

    /// [`Permission::from_answer`] of an answer already read as JSON.
    pub fn from_value(v: &serde_json::Value) -> Result<Permission, PermissionError> {
        let word = |k: &str| {
            v.get(k)
                .and_then(serde_json::Value::as_str)
                .and_then(Permission::parse)
        };
        word("role_name")
            .or_else(|| word("permission"))
            .ok_or(PermissionError::Unknown)
    }
}

impl fmt::Display for Permission {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Who may run a command: the author associations allowed, or the least
/// repository permission, read through GitHub's API by the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Policy {
    /// The associations allowed (never [`AuthorAssociation::Unknown`] when
    /// read by [`Policy::parse`]).
    pub allowed: BTreeSet<AuthorAssociation>,
    /// When set, the association is not weighed: every command waits for
    /// the commenter's permission, which must be at least this.
    pub min_permission: Option<Permission>,
}

impl Default for Policy {
    /// `OWNER`, `MEMBER` and `COLLABORATOR`: the people with write access
    /// or in the organization.
    fn default() -> Self {
        Policy {
            allowed: [
                AuthorAssociation::Owner,
                AuthorAssociation::Member,
                AuthorAssociation::Collaborator,
            ]
            .into(),
            min_permission: None,
        }
    }
}

impl Policy {
    /// Reads a configured list, `OWNER,MEMBER` (GitHub's words, upper case,
    /// separated by commas; spaces around a word are allowed).
    pub fn parse(list: &str) -> Result<Policy, PolicyError> {
        if list.trim().is_empty() {
            return Err(PolicyError::Empty);
        }
        let mut allowed = BTreeSet::new();
        for (i, item) in list.split(',').enumerate() {
            let word = item.trim();
            if word.is_empty() {
                return Err(PolicyError::EmptyItem { position: i + 1 });
            }
            let association =
                AuthorAssociation::known(word).ok_or_else(|| PolicyError::UnknownAssociation {
                    word: word.to_owned(),
                })?;
            if !allowed.insert(association) {
                return Err(PolicyError::Duplicate {
                    word: word.to_owned(),
                });
            }
        }
        Ok(Policy {
            allowed,
            min_permission: None,
        })
    }

    /// Commands for anyone whose permission on the repository is at least
    /// `min` (asked of GitHub for each command).
    pub fn by_permission(min: Permission) -> Policy {
        Policy {
            allowed: BTreeSet::new(),
            min_permission: Some(min),
        }
    }

    /// Whether a commenter with `association` may run a command (by
    /// permission: yes here, the permission decides next).
    pub fn allows(&self, association: &AuthorAssociation) -> bool {
        self.min_permission.is_some()
            || (!matches!(association, AuthorAssociation::Unknown(_))
                && self.allowed.contains(association))
    }

    /// Whether a commenter with `permission` may run a command (always,
    /// when the policy goes by association).
    pub fn permits(&self, permission: Permission) -> bool {
        self.min_permission.is_none_or(|min| permission >= min)
    }
}

impl FromStr for Policy {
    type Err = PolicyError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Policy::parse(s)
    }
}

impl fmt::Display for Policy {
    /// The list as [`Policy::parse`] reads it (`OWNER,MEMBER,COLLABORATOR`),
    /// or the least permission (`write permission or more`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(min) = self.min_permission {
            return write!(f, "{min} permission or more");
        }
        let words: Vec<&str> = self.allowed.iter().map(AuthorAssociation::as_str).collect();
        f.write_str(&words.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use AuthorAssociation as A;

    #[test]
    fn every_word_reads_back_as_written() {
        for (word, a) in KNOWN {
            assert_eq!(AuthorAssociation::parse(word), a);
            assert_eq!(a.as_str(), word);
        }
        let odd = AuthorAssociation::parse("owner");
        assert_eq!(odd, A::Unknown("owner".into()));
        assert_eq!(odd.as_str(), "owner");
    }

    #[test]
    fn the_default_allows_owners_members_and_collaborators() {
        let p = Policy::default();
        for a in [A::Owner, A::Member, A::Collaborator] {
            assert!(p.allows(&a), "{a:?}");
        }
        for a in [
            A::Contributor,
            A::FirstTimeContributor,
            A::FirstTimer,
            A::Mannequin,
            A::None,
            A::Unknown("OWNER ".into()),
        ] {
            assert!(!p.allows(&a), "{a:?}");
        }
        assert_eq!(p.to_string(), "OWNER,MEMBER,COLLABORATOR");
        assert_eq!(Policy::parse(&p.to_string()), Ok(p));
    }

    #[test]
    fn by_permission_every_association_waits_for_the_permission() {
        let p = Policy::by_permission(Permission::Write);
        for a in [A::None, A::Contributor, A::Unknown("X".into())] {
            assert!(p.allows(&a), "{a:?}");
        }
        for (perm, ok) in [
            (Permission::None, false),
            (Permission::Read, false),
            (Permission::Triage, false),
            (Permission::Write, true),
            (Permission::Maintain, true),
            (Permission::Admin, true),
        ] {
            assert_eq!(p.permits(perm), ok, "{perm}");
        }
        assert_eq!(p.to_string(), "write permission or more");
        // By association, the permission is never weighed.
        assert!(Policy::default().permits(Permission::None));
    }

    #[test]
    fn a_permission_answer_reads_its_role_else_its_base() {
        let read = |b: &str| Permission::from_answer(b.as_bytes());
        assert_eq!(
            read(r#"{"permission":"write","role_name":"maintain"}"#),
            Ok(Permission::Maintain)
        );
        // A custom role: its base permission.
        assert_eq!(
            read(r#"{"permission":"read","role_name":"auditor"}"#),
            Ok(Permission::Read)
        );
        assert_eq!(read(r#"{"permission":"none"}"#), Ok(Permission::None));
        assert_eq!(
            read(r#"{"role_name":"owner"}"#),
            Err(PermissionError::Unknown)
        );
        assert!(matches!(read("<html>"), Err(PermissionError::NotJson(_))));
        for (w, p) in PERMISSIONS {
            assert_eq!(Permission::parse(w), Some(p));
            assert_eq!(p.as_str(), w);
        }
    }

    #[test]
    fn a_configured_list_reads_strictly() {
        let p: Policy = " OWNER , CONTRIBUTOR".parse().unwrap();
        assert_eq!(p.allowed, [A::Owner, A::Contributor].into());
        assert_eq!(Policy::parse(""), Err(PolicyError::Empty));
        assert_eq!(Policy::parse("  "), Err(PolicyError::Empty));
        assert_eq!(
            Policy::parse("OWNER,,MEMBER"),
            Err(PolicyError::EmptyItem { position: 2 })
        );
        assert_eq!(
            Policy::parse("OWNER,"),
            Err(PolicyError::EmptyItem { position: 2 })
        );
        let e = Policy::parse("OWNER,maintainer").unwrap_err();
        assert_eq!(
            e,
            PolicyError::UnknownAssociation {
                word: "maintainer".into()
            }
        );
        assert_eq!(
            e.to_string(),
            format!("unknown author association `maintainer`: expected one of {KNOWN_WORDS}")
        );
        assert_eq!(
            Policy::parse("MEMBER,MEMBER"),
            Err(PolicyError::Duplicate {
                word: "MEMBER".into()
            })
        );
    }
}
