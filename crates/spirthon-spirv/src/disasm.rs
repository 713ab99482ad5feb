//! SPIR-V text with ids named after their `OpName`s (`%i`, `%s_1`), as `spirv-dis` prints
//! them, so golden files and `--emit spvasm` read like the source.

use std::collections::HashMap;

use rspirv::binary::Disassemble;

/// Disassembles `words`; names come from the module's `OpName`s, made unique with a suffix.
pub fn disassemble(words: &[u32]) -> Result<String, String> {
    let module = rspirv::dr::load_words(words).map_err(|e| format!("{e}"))?;
    let mut names: HashMap<u32, String> = HashMap::new();
    let mut taken: HashMap<String, u32> = HashMap::new();
    for inst in &module.debug_names {
        if inst.class.opcode != rspirv::spirv::Op::Name {
            continue;
        }
        let (Some(rspirv::dr::Operand::IdRef(id)), Some(rspirv::dr::Operand::LiteralString(n))) =
            (inst.operands.first(), inst.operands.get(1))
        else {
            continue;
        };
        if names.contains_key(id) || n.is_empty() {
            continue;
        }
        let count = taken.entry(n.clone()).or_insert(0);
        let unique = if *count == 0 {
            n.clone()
        } else {
            format!("{n}_{count}")
        };
        *count += 1;
        names.insert(*id, unique);
    }
    let text = module.disassemble();
    let text = rename(&text, &names);
    // rspirv separates operands with double spaces in places; print them singly.
    let lines: Vec<String> = text
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    Ok(lines.join("\n") + "\n")
}

/// Replaces every `%N` whose id has a name by `%name`.
fn rename(text: &str, names: &HashMap<u32, String>) -> String {
    let mut out = String::with_capacity(text.len());
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let start = i + 1;
            let mut end = start;
            while end < bytes.len() && bytes[end].is_ascii_digit() {
                end += 1;
            }
            if end > start {
                let id: u32 = text[start..end].parse().unwrap_or(u32::MAX);
                if let Some(n) = names.get(&id) {
                    out.push('%');
                    out.push_str(n);
                    i = end;
                    continue;
                }
            }
        }
        let ch = text[i..].chars().next().unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}
