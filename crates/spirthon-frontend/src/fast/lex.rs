//! The fast path's lexer: source bytes to tokens, or `None` at anything the fast path does
//! not take (see the parent module).

use spirthon_ir::cfg::CmpOp;

use crate::ast::BinaryOp;

#[derive(Copy, Clone, PartialEq, Debug)]
pub(super) enum Kw {
    If,
    Elif,
    Else,
    While,
    For,
    In,
    Break,
    Continue,
    Return,
    Pass,
    Assert,
    Def,
    Class,
    Import,
    From,
    As,
    And,
    Or,
    Not,
    Is,
    True,
    False,
    None,
    /// Any other keyword of Python: never accepted here.
    Other,
}

pub(super) fn keyword(name: &[u8]) -> Option<Kw> {
    Some(match name {
        b"if" => Kw::If,
        b"elif" => Kw::Elif,
        b"else" => Kw::Else,
        b"while" => Kw::While,
        b"for" => Kw::For,
        b"in" => Kw::In,
        b"break" => Kw::Break,
        b"continue" => Kw::Continue,
        b"return" => Kw::Return,
        b"pass" => Kw::Pass,
        b"assert" => Kw::Assert,
        b"def" => Kw::Def,
        b"class" => Kw::Class,
        b"import" => Kw::Import,
        b"from" => Kw::From,
        b"as" => Kw::As,
        b"and" => Kw::And,
        b"or" => Kw::Or,
        b"not" => Kw::Not,
        b"is" => Kw::Is,
        b"True" => Kw::True,
        b"False" => Kw::False,
        b"None" => Kw::None,
        b"async" | b"await" | b"del" | b"except" | b"finally" | b"global" | b"lambda"
        | b"nonlocal" | b"raise" | b"try" | b"with" | b"yield" => Kw::Other,
        _ => return None,
    })
}

#[derive(Copy, Clone, PartialEq, Debug)]
pub(super) enum K {
    Name,
    Kw(Kw),
    /// An int literal, up to `2**64 - 1` (a larger one is left to the full parser).
    Int(u64),
    Float(f64),
    Str,
    Newline,
    Indent,
    Dedent,
    Eof,
    LParen,
    RParen,
    LBracket,
    RBracket,
    Colon,
    Comma,
    Dot,
    At,
    Assign,
    Arrow,
    Tilde,
    Bin(BinaryOp),
    Aug(BinaryOp),
    Cmp(CmpOp),
    /// `:=`.
    Walrus,
    /// An operator with no place in this subset (`{`, `;`, `@=`, `...`, `!`…).
    Other,
}

#[derive(Copy, Clone, Debug)]
pub(super) struct Tok {
    pub(super) k: K,
    pub(super) start: u32,
    pub(super) end: u32,
}

/// Where a logical line starts, seen from the start of a physical one.
enum LineStart {
    /// The source ends (only blanks and comments were left).
    End,
    /// A blank or comment-only line, ending before this offset.
    Skip(usize),
    /// The line's first token is at this offset (INDENT/DEDENTs are pushed).
    Line(usize),
}

fn push_tok(toks: &mut Vec<Tok>, k: K, start: usize, end: usize) {
    toks.push(Tok {
        k,
        start: start as u32,
        end: end as u32,
    })
}

/// Measures a line's indentation and pushes its INDENT or DEDENTs; `None` on tabs, form
/// feeds, carriage returns or an indentation that matches no enclosing block.
fn line_indent(
    s: &[u8],
    pos: usize,
    indents: &mut Vec<usize>,
    toks: &mut Vec<Tok>,
) -> Option<LineStart> {
    let mut col = pos;
    while col < s.len() && s[col] == b' ' {
        col += 1;
    }
    match s.get(col) {
        None => return Some(LineStart::End),
        Some(b'#') => return Some(LineStart::Skip(skip_comment(s, col))),
        Some(b'\n') => return Some(LineStart::Skip(col + 1)),
        Some(b'\t' | b'\x0c' | b'\r') => return None,
        Some(_) => {}
    }
    let width = col - pos;
    if width > *indents.last()? {
        indents.push(width);
        push_tok(toks, K::Indent, col, col);
    }
    while width < *indents.last()? {
        indents.pop();
        push_tok(toks, K::Dedent, col, col);
    }
    (width == *indents.last()?).then_some(LineStart::Line(col))
}

/// Tokens with Python's NEWLINE / INDENT / DEDENT, or `None` on anything unusual.
pub(super) fn lex(s: &[u8]) -> Option<Vec<Tok>> {
    let mut toks = Vec::with_capacity(s.len() / 3);
    let mut indents = vec![0usize];
    let (mut pos, mut parens, mut line_start) = (0usize, 0u32, true);

    while pos < s.len() {
        if line_start && parens == 0 {
            match line_indent(s, pos, &mut indents, &mut toks)? {
                LineStart::End => break,
                LineStart::Skip(next) => {
                    pos = next;
                    continue;
                }
                LineStart::Line(col) => {
                    pos = col;
                    line_start = false;
                }
            }
        }
        let c = s[pos];
        match c {
            b' ' => pos += 1,
            b'#' => pos = skip_comment(s, pos),
            b'\n' => {
                if parens == 0 {
                    push_tok(&mut toks, K::Newline, pos, pos + 1);
                    line_start = true;
                }
                pos += 1;
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                let start = pos;
                while pos < s.len() && (s[pos].is_ascii_alphanumeric() || s[pos] == b'_') {
                    pos += 1;
                }
                if matches!(s.get(pos), Some(b'\'' | b'"')) {
                    return None; // a string prefix
                }
                let k = keyword(&s[start..pos]).map_or(K::Name, K::Kw);
                push_tok(&mut toks, k, start, pos);
            }
            b'0'..=b'9' => {
                let (k, end) = number(s, pos)?;
                push_tok(&mut toks, k, pos, end);
                pos = end;
            }
            b'.' if s.get(pos + 1).is_some_and(u8::is_ascii_digit) => {
                let (k, end) = number(s, pos)?;
                push_tok(&mut toks, k, pos, end);
                pos = end;
            }
            b'\'' | b'"' => {
                let end = string(s, pos)?;
                push_tok(&mut toks, K::Str, pos, end);
                pos = end;
            }
            _ => {
                let (k, len) = operator(&s[pos..])?;
                match k {
                    K::LParen | K::LBracket => parens += 1,
                    K::RParen | K::RBracket => parens = parens.checked_sub(1)?,
                    _ => {}
                }
                push_tok(&mut toks, k, pos, pos + len);
                pos += len;
            }
        }
    }
    if parens != 0 {
        return None;
    }
    if !line_start {
        push_tok(&mut toks, K::Newline, s.len(), s.len());
    }
    for _ in 1..indents.len() {
        push_tok(&mut toks, K::Dedent, s.len(), s.len());
    }
    push_tok(&mut toks, K::Eof, s.len(), s.len());
    Some(toks)
}

pub(super) fn skip_comment(s: &[u8], mut pos: usize) -> usize {
    while pos < s.len() && s[pos] != b'\n' {
        pos += 1;
    }
    pos
}

/// A decimal, hexadecimal, octal or binary literal starting at `start`.
pub(super) fn number(s: &[u8], start: usize) -> Option<(K, usize)> {
    let radix = match (s[start], s.get(start + 1)) {
        (b'0', Some(b'x' | b'X')) => 16,
        (b'0', Some(b'o' | b'O')) => 8,
        (b'0', Some(b'b' | b'B')) => 2,
        _ => 10,
    };
    let mut pos = start;
    if radix != 10 {
        pos += 2;
        let digits = pos;
        while pos < s.len() && (s[pos] as char).is_digit(radix) {
            pos += 1;
        }
        if pos == digits || pos - digits > 64 || continues_word(s, pos) {
            return None;
        }
        let text = std::str::from_utf8(&s[digits..pos]).ok()?;
        let value = u64::from_str_radix(text, radix).ok()?;
        return Some((K::Int(value), pos));
    }
    let digits = |pos: &mut usize| {
        let from = *pos;
        while *pos < s.len() && s[*pos].is_ascii_digit() {
            *pos += 1;
        }
        *pos - from
    };
    let whole = digits(&mut pos);
    let mut float = false;
    if s.get(pos) == Some(&b'.') {
        float = true;
        pos += 1;
        digits(&mut pos);
    }
    if matches!(s.get(pos), Some(b'e' | b'E')) {
        float = true;
        pos += 1;
        if matches!(s.get(pos), Some(b'+' | b'-')) {
            pos += 1;
        }
        if digits(&mut pos) == 0 {
            return None;
        }
    }
    if continues_word(s, pos) || s.get(pos) == Some(&b'.') {
        return None;
    }
    let text = std::str::from_utf8(&s[start..pos]).ok()?;
    if float {
        return Some((K::Float(text.parse().ok()?), pos));
    }
    // `0`, `00`… are zero; any other leading zero is a syntax error.
    if whole > 1 && s[start] == b'0' && s[start..pos].iter().any(|&c| c != b'0') {
        return None;
    }
    if whole > 20 {
        return None;
    }
    let value: u64 = text.parse().ok()?;
    Some((K::Int(value), pos))
}

/// Whether a number is followed by a letter, digit or `_` (`1j`, `1_0`, `0x1g`): not ours.
pub(super) fn continues_word(s: &[u8], pos: usize) -> bool {
    s.get(pos)
        .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
}

/// The end of the (unprefixed) string literal starting at `start`.
pub(super) fn string(s: &[u8], start: usize) -> Option<usize> {
    let q = s[start];
    let triple = s.get(start + 1) == Some(&q) && s.get(start + 2) == Some(&q);
    let mut pos = start + if triple { 3 } else { 1 };
    loop {
        match *s.get(pos)? {
            b'\\' => pos += 2,
            b'\n' | b'\r' if !triple => return None,
            c if c == q => {
                if !triple {
                    return Some(pos + 1);
                }
                if s.get(pos + 1) == Some(&q) && s.get(pos + 2) == Some(&q) {
                    return Some(pos + 3);
                }
                pos += 1;
            }
            _ => pos += 1,
        }
    }
}

/// The operator at the start of `s` and its length; `None` for bytes Python has no token
/// for here (backslash, tab, non-ASCII…).
pub(super) fn operator(s: &[u8]) -> Option<(K, usize)> {
    use BinaryOp as B;
    let at = |i: usize| s.get(i).copied().unwrap_or(0);
    let (c, d, e) = (s[0], at(1), at(2));
    Some(match (c, d, e) {
        (b'*', b'*', b'=') | (b'/', b'/', b'=') | (b'<', b'<', b'=') | (b'>', b'>', b'=') => {
            let op = match c {
                b'*' => B::Pow,
                b'/' => B::FloorDiv,
                b'<' => B::Shl,
                _ => B::Shr,
            };
            (K::Aug(op), 3)
        }
        (b'.', b'.', b'.') => (K::Other, 3),
        (b'*', b'*', _) => (K::Bin(B::Pow), 2),
        (b'/', b'/', _) => (K::Bin(B::FloorDiv), 2),
        (b'<', b'<', _) => (K::Bin(B::Shl), 2),
        (b'>', b'>', _) => (K::Bin(B::Shr), 2),
        (b'<', b'=', _) => (K::Cmp(CmpOp::Le), 2),
        (b'>', b'=', _) => (K::Cmp(CmpOp::Ge), 2),
        (b'=', b'=', _) => (K::Cmp(CmpOp::Eq), 2),
        (b'!', b'=', _) => (K::Cmp(CmpOp::Ne), 2),
        (b'-', b'>', _) => (K::Arrow, 2),
        (b':', b'=', _) => (K::Walrus, 2),
        (b'@', b'=', _) => (K::Other, 2),
        (b'+' | b'-' | b'*' | b'/' | b'%' | b'|' | b'^' | b'&', b'=', _) => {
            let op = match c {
                b'+' => B::Add,
                b'-' => B::Sub,
                b'*' => B::Mul,
                b'/' => B::Div,
                b'%' => B::Mod,
                b'|' => B::BitOr,
                b'^' => B::BitXor,
                _ => B::BitAnd,
            };
            (K::Aug(op), 2)
        }
        (b'+', ..) => (K::Bin(B::Add), 1),
        (b'-', ..) => (K::Bin(B::Sub), 1),
        (b'*', ..) => (K::Bin(B::Mul), 1),
        (b'/', ..) => (K::Bin(B::Div), 1),
        (b'%', ..) => (K::Bin(B::Mod), 1),
        (b'|', ..) => (K::Bin(B::BitOr), 1),
        (b'^', ..) => (K::Bin(B::BitXor), 1),
        (b'&', ..) => (K::Bin(B::BitAnd), 1),
        (b'<', ..) => (K::Cmp(CmpOp::Lt), 1),
        (b'>', ..) => (K::Cmp(CmpOp::Gt), 1),
        (b'~', ..) => (K::Tilde, 1),
        (b'(', ..) => (K::LParen, 1),
        (b')', ..) => (K::RParen, 1),
        (b'[', ..) => (K::LBracket, 1),
        (b']', ..) => (K::RBracket, 1),
        (b':', ..) => (K::Colon, 1),
        (b',', ..) => (K::Comma, 1),
        (b'.', ..) => (K::Dot, 1),
        (b'@', ..) => (K::At, 1),
        (b'=', ..) => (K::Assign, 1),
        (b'{' | b'}' | b';' | b'!' | b'$' | b'?' | b'`', ..) => (K::Other, 1),
        _ => return None,
    })
}
