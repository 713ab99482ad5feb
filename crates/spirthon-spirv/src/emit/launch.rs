//! Launches of any size (docs/language.md, "The binding ABI"): a launch with more workgroups
//! on an axis than the device dispatches at once runs as several dispatches, each over a
//! block of the launch's workgroups; the hidden uniform member `group_base` is the
//! workgroup id where a dispatch's block starts (zeros for a launch of one dispatch).
//!
//! A kernel stores `group_base` and `group_base * workgroup_size` into private variables
//! first thing (so a func shared by kernels of different workgroup sizes reads its own
//! kernel's), and every read of the global or workgroup id adds them; the workgroup count is
//! the launch's, `ceil(threads / workgroup_size)`, stored likewise. So `global_id()`,
//! `workgroup_id()` and `num_workgroups()` mean the whole launch's, in every function, in
//! checked mode's keys and in printed records.
//!
//! Invariant: the private variables exist only in a module that reads one of those three
//! ids (a launch guard and a print read the global id).

use rspirv::spirv::{Op as SOp, StorageClass, Word};

use spirthon_ir::cfg::*;
use spirthon_ir::hash::FastMap;
use spirthon_ir::{Const, Scalar, Ty};

use super::memory::uniform_load;
use super::{Emitter, FnState, Globals, R};

/// The private variables of a module that reads a launch-wide id: each only where its id
/// is read.
pub(super) struct LaunchIds {
    /// The first workgroup id of this dispatch's block.
    group_base: Option<Word>,
    /// `group_base * workgroup_size`.
    global_base: Option<Word>,
    /// The launch's workgroups per axis.
    groups: Option<Word>,
}

/// The ids whose value is the whole launch's.
fn launch_wide(bi: Builtin) -> bool {
    matches!(
        bi,
        Builtin::GlobalId | Builtin::WorkgroupId | Builtin::NumWorkgroups
    )
}

impl Emitter {
    /// The private variables, for a module that reads a launch-wide id.
    pub(super) fn launch_globals(
        &mut self,
        builtins: &FastMap<Builtin, Word>,
    ) -> Option<LaunchIds> {
        if !builtins.keys().any(|&b| launch_wide(b)) {
            return None;
        }
        let u3 = self.ty(Ty::Vector(Scalar::U32, 3));
        let p = self.b.type_pointer(StorageClass::Private, u3);
        let zero = self.konst(Const::U32(0));
        let zeros = self.b.constant_composite(u3, &[zero, zero, zero]);
        let var = |e: &mut Emitter, name: &str| {
            let v = e.b.variable_init(p, StorageClass::Private, zeros);
            e.name(v, name);
            v
        };
        let mut declared =
            |bi: Builtin, name: &str| builtins.contains_key(&bi).then(|| var(&mut *self, name));
        Some(LaunchIds {
            group_base: declared(Builtin::WorkgroupId, "group_base"),
            global_base: declared(Builtin::GlobalId, "global_base"),
            groups: declared(Builtin::NumWorkgroups, "launch_groups"),
        })
    }

    /// The value of builtin `bi` as a `uvec3` (a `u32` for the scalar ones): for the global
    /// id, the workgroup id and the workgroup count, the whole launch's.
    pub(super) fn launch_id(&mut self, g: &Globals, bi: Builtin) -> R<Word> {
        let var = *g
            .builtins
            .get(&bi)
            .ok_or_else(|| super::EmitError(format!("builtin {bi:?} is not declared")))?;
        let t = match bi {
            Builtin::LocalIndex | Builtin::SubgroupSize | Builtin::SubgroupInvocationId => Ty::U32,
            _ => Ty::Vector(Scalar::U32, 3),
        };
        let tw = self.ty(t);
        let (Some(l), true) = (&g.launch, launch_wide(bi)) else {
            return self.b.op(SOp::Load, tw, None, &[var]);
        };
        let missing = || super::EmitError(format!("no launch-wide {bi:?}"));
        if bi == Builtin::NumWorkgroups {
            return self
                .b
                .op(SOp::Load, tw, None, &[l.groups.ok_or_else(missing)?]);
        }
        let raw = self.b.op(SOp::Load, tw, None, &[var])?;
        let base = match bi {
            Builtin::GlobalId => l.global_base,
            _ => l.group_base,
        };
        let base = self
            .b
            .op(SOp::Load, tw, None, &[base.ok_or_else(missing)?])?;
        self.b.op(SOp::IAdd, tw, None, &[raw, base])
    }
}

impl FnState<'_> {
    /// A kernel's first instructions, in a module that reads a launch-wide id: its dispatch's
    /// `group_base`, that times its workgroup size, and the launch's workgroup count, into
    /// the private variables.
    pub(super) fn store_launch_base(&mut self, e: &mut Emitter, m: &Module) -> R<()> {
        let Some(l) = &self.g.launch else {
            return Ok(());
        };
        let Some(ep) = m.entry_points.iter().find(|ep| ep.function == self.id) else {
            return Ok(());
        };
        let u3 = e.ty(Ty::Vector(Scalar::U32, 3));
        let [x, y, z] = ep.workgroup_size.map(|n| e.konst(Const::U32(n)));
        let size = e.b.constant_composite(u3, &[x, y, z]);
        let Some((var, layout)) = self.g.uniform_of.get(&self.id) else {
            return Err(super::EmitError(format!(
                "kernel `{}` has no uniform block",
                ep.name
            )));
        };
        if l.group_base.is_some() || l.global_base.is_some() {
            let base = uniform_load(e, *var, layout.base_member(), u3, None)?;
            if let Some(v) = l.group_base {
                e.b.void(SOp::Store, &[v, base])?;
            }
            if let Some(v) = l.global_base {
                let global = e.b.op(SOp::IMul, u3, None, &[base, size])?;
                e.b.void(SOp::Store, &[v, global])?;
            }
        }
        if let Some(v) = l.groups {
            let threads = uniform_load(e, *var, layout.threads_member(), u3, None)?;
            let [a, b, c] = ep.workgroup_size.map(|n| e.konst(Const::U32(n - 1)));
            let less = e.b.constant_composite(u3, &[a, b, c]);
            let up = e.b.op(SOp::IAdd, u3, None, &[threads, less])?;
            let groups = e.b.op(SOp::UDiv, u3, None, &[up, size])?;
            e.b.void(SOp::Store, &[v, groups])?;
        }
        Ok(())
    }
}
