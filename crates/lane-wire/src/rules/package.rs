//! Rules on a package as a whole: a package no file declares any more, and
//! a message, enum, service or extension no longer in a package that still
//! exists (moved to another file of the package is not a deletion).

use std::collections::{BTreeMap, BTreeSet};

use super::Out;
use crate::index::{nested_name, Index};
use crate::model::RuleId;

/// An element of a package: its nested name, and the file it was in.
type Members = BTreeMap<String, BTreeMap<String, String>>;

fn members<'a>(items: impl Iterator<Item = (&'a str, &'a str, String)>) -> Members {
    let mut map = Members::new();
    for (package, full_name, file) in items {
        map.entry(package.to_owned())
            .or_default()
            .insert(nested_name(full_name, package).to_owned(), file);
    }
    map
}

pub(super) fn check(before: &Index, after: &Index, out: &mut Out) {
    let packages = |index: &Index| -> BTreeMap<String, BTreeSet<String>> {
        let mut map: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (path, file) in &index.files {
            map.entry(file.package_name().to_owned())
                .or_default()
                .insert(path.clone());
        }
        map
    };
    let now_packages = packages(after);
    for (package, files) in packages(before) {
        if !now_packages.contains_key(&package) {
            let first = files.first().cloned().unwrap_or_default();
            out.add(
                RuleId::PackageNoDelete,
                &first,
                &package,
                format!("Previously present package {package:?} was deleted."),
            );
        }
    }

    type Of = fn(&Index) -> Members;
    let kinds: [(RuleId, &str, Of); 4] = [
        (RuleId::PackageMessageNoDelete, "message", |i| {
            members(i.messages.iter().map(|(n, m)| {
                (
                    m.package_name(),
                    n.as_str(),
                    m.parent_file().name().to_owned(),
                )
            }))
        }),
        (RuleId::PackageEnumNoDelete, "enum", |i| {
            members(i.enums.iter().map(|(n, e)| {
                (
                    e.package_name(),
                    n.as_str(),
                    e.parent_file().name().to_owned(),
                )
            }))
        }),
        (RuleId::PackageServiceNoDelete, "service", |i| {
            members(i.services.iter().map(|(n, s)| {
                (
                    s.package_name(),
                    n.as_str(),
                    s.parent_file().name().to_owned(),
                )
            }))
        }),
        (RuleId::PackageExtensionNoDelete, "extension", |i| {
            members(i.extensions.iter().map(|(n, x)| {
                (
                    x.package_name(),
                    n.as_str(),
                    x.parent_file().name().to_owned(),
                )
            }))
        }),
    ];
    for (rule, kind, of) in kinds {
        let now = of(after);
        for (package, was) in of(before) {
            let Some(current) = now.get(&package) else {
                continue;
            };
            for (nested, was_file) in was {
                if current.contains_key(&nested) {
                    continue;
                }
                let element = if package.is_empty() {
                    nested.clone()
                } else {
                    format!("{package}.{nested}")
                };
                out.add(
                    rule,
                    &was_file,
                    &element,
                    format!("Previously present {kind} {nested:?} was deleted from package {package:?}."),
                );
            }
        }
    }
}
