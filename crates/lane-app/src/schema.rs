//! `lane schema`: the JSON Schema of lane files, for editors and for
//! `docs/lane.schema.json`; or of a file lane writes in a results folder
//! (`docs/schemas/`).

use crate::error::AppError;

/// The files `lane schema` knows.
pub const SCHEMA_FILES: [&str; 5] = ["lane", "summary", "mint", "result", "manifest"];

/// The schema of `file`: `lane` (a lane file), `summary` (summary.json),
/// `mint` (a slot's mint.json), `result` (an agent's result.json) or
/// `manifest` (a result bundle's manifest.json).
pub fn schema(file: &str) -> Result<String, AppError> {
    if file == "lane" {
        return Ok(lane_file::schema_text());
    }
    let name = format!("{file}.schema.json");
    lane_core::results::schema_texts()
        .into_iter()
        .find(|(n, _)| *n == name)
        .map(|(_, t)| t)
        .ok_or_else(|| {
            AppError::Usage(format!(
                "no schema `{file}`: expected one of {}",
                SCHEMA_FILES.join(", ")
            ))
        })
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_listed_file_has_a_kept_schema_and_another_is_a_usage_error() {
        for f in super::SCHEMA_FILES {
            let text = super::schema(f).expect("a kept schema");
            assert!(text.contains("\"$schema\""), "{f}");
        }
        let e = super::schema("nope").unwrap_err();
        assert_eq!(e.exit(), crate::Exit::Usage);
    }
}
