//! The environment a mint ran in, as its agent saw it: the GPU, its
//! driver, CUDA, torch, triton, the upstream's version, the image and the
//! node. Recorded per attempt (`result.json`, copied into `mint.json`) so
//! that lane's history can tell a change of environment from a regression.
//! A field that was not recorded is absent: absent is "unknown", never
//! "changed".

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What an attempt's environment was. Every field is optional.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EnvFingerprint {
    /// The GPU model (`NVIDIA H200`), from `nvidia-smi`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_model: Option<String>,
    /// The driver version, from `nvidia-smi`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub driver: Option<String>,
    /// The CUDA version torch was built with (`torch.version.cuda`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cuda: Option<String>,
    /// torch's version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub torch: Option<String>,
    /// triton's version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub triton: Option<String>,
    /// The upstream's version (from the wheel the mint installed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upstream: Option<String>,
    /// The image's digest (`LANE_IMAGE_DIGEST`, where the pod sets it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_digest: Option<String>,
    /// The node it ran on (`NODE_NAME`, where the pod sets it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node: Option<String>,
}

impl EnvFingerprint {
    /// True when nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self == &EnvFingerprint::default()
    }

    /// The fields shared by every fingerprint of `all`: a field any two
    /// disagree on, or any one lacks, is absent (unknown). A run minted on
    /// several nodes, or GPU classes, keeps only what they had in common.
    pub fn common<'a>(all: impl IntoIterator<Item = &'a EnvFingerprint>) -> EnvFingerprint {
        let mut all = all.into_iter();
        let Some(first) = all.next() else {
            return EnvFingerprint::default();
        };
        let mut out = first.clone();
        for f in all {
            for (mine, theirs) in out.fields_mut().into_iter().zip(f.fields()) {
                if mine.as_ref() != theirs {
                    *mine = None;
                }
            }
        }
        out
    }

    /// The fields that differ between two fingerprints, where both were
    /// recorded: `(field, before, after)`. Empty means "no known change".
    pub fn changes(&self, after: &EnvFingerprint) -> Vec<(&'static str, String, String)> {
        const NAMES: [&str; 8] = [
            "gpu_model",
            "driver",
            "cuda",
            "torch",
            "triton",
            "upstream",
            "image_digest",
            "node",
        ];
        NAMES
            .into_iter()
            .zip(self.fields().into_iter().zip(after.fields()))
            .filter_map(|(name, pair)| match pair {
                (Some(a), Some(b)) if a != b => Some((name, a.clone(), b.clone())),
                _ => None,
            })
            .collect()
    }

    fn fields(&self) -> [Option<&String>; 8] {
        [
            self.gpu_model.as_ref(),
            self.driver.as_ref(),
            self.cuda.as_ref(),
            self.torch.as_ref(),
            self.triton.as_ref(),
            self.upstream.as_ref(),
            self.image_digest.as_ref(),
            self.node.as_ref(),
        ]
    }

    fn fields_mut(&mut self) -> [&mut Option<String>; 8] {
        [
            &mut self.gpu_model,
            &mut self.driver,
            &mut self.cuda,
            &mut self.torch,
            &mut self.triton,
            &mut self.upstream,
            &mut self.image_digest,
            &mut self.node,
        ]
    }
}

/// Whether the card a mint ran on is the GPU class its slot names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CardCheck {
    /// The card's model names the class (`NVIDIA L40S` for `L40S`).
    Is,
    /// The card is another one: its seconds are not the class's.
    IsNot {
        /// The card's model, as recorded.
        card: String,
    },
    /// No card was recorded: nothing proves either way.
    Unknown,
    /// Another card, which the lane file lets stand in for the class
    /// (`mint.stand_in`): its seconds are that card's, named beside the
    /// class, never the class's.
    StandsIn {
        /// The card's model, as recorded.
        card: String,
    },
}

/// [`card_of_class`], where `stand_in` (the card word the lane file lets
/// stand in for the class) turns a card that is not the class but names it
/// into [`CardCheck::StandsIn`].
pub fn card_of_slot(class: &str, stand_in: Option<&str>, gpu_model: Option<&str>) -> CardCheck {
    match (card_of_class(class, gpu_model), stand_in) {
        (CardCheck::IsNot { card }, Some(word))
            if card_of_class(word, Some(&card)) == CardCheck::Is =>
        {
            CardCheck::StandsIn { card }
        }
        (check, _) => check,
    }
}

/// Checks a slot's GPU `class` against the `gpu_model` its mint recorded:
/// the class must be one of the model's words, compared without case
/// (`H100` is `NVIDIA H100 80GB HBM3`; `L4` is not `NVIDIA L40S`). A class
/// that is not a card's name (`gpu-a`) is never proven by any card.
pub fn card_of_class(class: &str, gpu_model: Option<&str>) -> CardCheck {
    let Some(card) = gpu_model.map(str::trim).filter(|c| !c.is_empty()) else {
        return CardCheck::Unknown;
    };
    let named = card
        .split(|c: char| c.is_whitespace() || c == '-' || c == '_')
        .any(|word| word.eq_ignore_ascii_case(class.trim()));
    if named {
        CardCheck::Is
    } else {
        CardCheck::IsNot {
            card: card.to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_is_its_class_only_when_its_model_names_it() {
        assert_eq!(card_of_class("H200", Some("NVIDIA H200")), CardCheck::Is);
        assert_eq!(
            card_of_class("h100", Some("NVIDIA H100 80GB HBM3")),
            CardCheck::Is
        );
        assert_eq!(card_of_class("L40S", Some("NVIDIA L40S")), CardCheck::Is);
        assert_eq!(
            card_of_class("L4", Some("NVIDIA L40S")),
            CardCheck::IsNot {
                card: "NVIDIA L40S".into()
            }
        );
        assert_eq!(
            card_of_class("H200", Some("NVIDIA H100 80GB HBM3")),
            CardCheck::IsNot {
                card: "NVIDIA H100 80GB HBM3".into()
            }
        );
        assert_eq!(card_of_class("H200", None), CardCheck::Unknown);
        let h100 = Some("NVIDIA H100 80GB HBM3");
        assert_eq!(
            card_of_slot("H200", Some("H100"), h100),
            CardCheck::StandsIn {
                card: "NVIDIA H100 80GB HBM3".into()
            }
        );
        // A stand-in names one card: any other is still not the class.
        assert!(matches!(
            card_of_slot("H200", Some("L40S"), h100),
            CardCheck::IsNot { .. }
        ));
        assert_eq!(
            card_of_slot("H200", Some("H100"), Some("NVIDIA H200")),
            CardCheck::Is
        );
        assert_eq!(card_of_class("H200", Some("  ")), CardCheck::Unknown);
    }

    #[test]
    fn common_keeps_what_every_mint_agreed_on() {
        let a = EnvFingerprint {
            gpu_model: Some("NVIDIA H200".into()),
            torch: Some("2.11.0".into()),
            node: Some("gpu-1".into()),
            ..EnvFingerprint::default()
        };
        let b = EnvFingerprint {
            node: Some("gpu-2".into()),
            ..a.clone()
        };
        let c = EnvFingerprint {
            torch: None,
            ..a.clone()
        };
        let both = EnvFingerprint::common([&a, &b]);
        assert_eq!(both.node, None);
        assert_eq!(both.torch.as_deref(), Some("2.11.0"));
        assert_eq!(EnvFingerprint::common([&a, &c]).torch, None);
        assert!(EnvFingerprint::common([]).is_empty());
        let text = serde_json::to_string(&both).unwrap();
        assert_eq!(text, r#"{"gpu_model":"NVIDIA H200","torch":"2.11.0"}"#);
    }
}
