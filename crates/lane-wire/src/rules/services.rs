//! Rules on a service and its counterpart of the same full name, and on
//! each of its RPCs and the one of the same name.

use prost_reflect::MethodDescriptor;

use super::Out;
use crate::index::Index;
use crate::model::RuleId;

pub(super) fn check(before: &Index, after: &Index, out: &mut Out) {
    for (name, previous) in &before.services {
        let Some(service) = after.services.get(name) else {
            continue;
        };
        let file = service.parent_file().name().to_owned();
        for was in previous.methods() {
            let Some(now) = service.methods().find(|m| m.name() == was.name()) else {
                out.add(
                    RuleId::RpcNoDelete,
                    &file,
                    was.full_name(),
                    format!(
                        "Previously present RPC {:?} on service {:?} was deleted.",
                        was.name(),
                        service.name()
                    ),
                );
                continue;
            };
            method_pair(&was, &now, &file, out);
        }
    }
}

fn method_pair(was: &MethodDescriptor, now: &MethodDescriptor, file: &str, out: &mut Out) {
    let rpc = format!(
        "RPC {:?} on service {:?}",
        now.name(),
        now.parent_service().name()
    );
    let mut add = |rule, message: String| out.add(rule, file, now.full_name(), message);
    let streaming = |s: bool| if s { "streaming" } else { "unary" };
    if was.is_client_streaming() != now.is_client_streaming() {
        add(
            RuleId::RpcSameClientStreaming,
            format!(
                "{rpc} changed from client {} to client {}.",
                streaming(was.is_client_streaming()),
                streaming(now.is_client_streaming())
            ),
        );
    }
    if was.is_server_streaming() != now.is_server_streaming() {
        add(
            RuleId::RpcSameServerStreaming,
            format!(
                "{rpc} changed from server {} to server {}.",
                streaming(was.is_server_streaming()),
                streaming(now.is_server_streaming())
            ),
        );
    }
    let level = |m: &MethodDescriptor| {
        m.method_descriptor_proto()
            .options
            .as_ref()
            .map_or("IDEMPOTENCY_UNKNOWN", |o| {
                o.idempotency_level().as_str_name()
            })
    };
    if level(was) != level(now) {
        add(
            RuleId::RpcSameIdempotencyLevel,
            format!(
                "{rpc} changed option \"idempotency_level\" from {:?} to {:?}.",
                level(was),
                level(now)
            ),
        );
    }
    if was.input().full_name() != now.input().full_name() {
        add(
            RuleId::RpcSameRequestType,
            format!(
                "{rpc} changed request type from {:?} to {:?}.",
                was.input().full_name(),
                now.input().full_name()
            ),
        );
    }
    if was.output().full_name() != now.output().full_name() {
        add(
            RuleId::RpcSameResponseType,
            format!(
                "{rpc} changed response type from {:?} to {:?}.",
                was.output().full_name(),
                now.output().full_name()
            ),
        );
    }
}
