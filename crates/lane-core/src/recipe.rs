//! The recipe a cell is compiled with: the lane file's `recipe` and the
//! report's `recipe` are this one type.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How a cell is compiled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Recipe {
    /// `torch.compile` (JIT); compiles run inline inside the warm-up forwards.
    Dynamo,
    /// `torch.export` + AOTInductor: one compile per declared entry.
    Aot,
}

impl Recipe {
    /// The recipe a report or record names; `None` for a name this version
    /// of lane does not know (the caller keeps the raw text to show it).
    pub fn parse(s: &str) -> Option<Recipe> {
        match s {
            "dynamo" => Some(Recipe::Dynamo),
            "aot" => Some(Recipe::Aot),
            _ => None,
        }
    }

    /// The name as the lane file and reports write it.
    pub fn as_str(self) -> &'static str {
        match self {
            Recipe::Dynamo => "dynamo",
            Recipe::Aot => "aot",
        }
    }
}

impl std::fmt::Display for Recipe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::Recipe;

    #[test]
    fn recipes_round_trip_through_their_names() {
        for r in [Recipe::Dynamo, Recipe::Aot] {
            assert_eq!(Recipe::parse(r.as_str()), Some(r));
            assert_eq!(serde_json::to_string(&r).unwrap(), format!("\"{r}\""));
        }
        assert_eq!(Recipe::parse("eager"), None);
    }
}
