//! The parser's fast path: a hand-written lexer and recursive-descent parser for the part of
//! Python that kernel files are made of, building exactly the [`Ast`] that the reference path
//! (module `parse`, over rustpython-parser) builds — the same nodes, in the same arena order,
//! with the same byte spans — or giving up.
//!
//! It gives up (`None`) at the first thing outside that part: any syntax error, any construct
//! the kernel language rejects, any top-level statement other than imports, constants, a
//! string and `@kernel`/`@func` defs, tabs, form feeds, carriage returns and backslash
//! continuations, non-ASCII text outside comments and strings, string prefixes and
//! implicit concatenation, semicolons, one-line suites, numbers with `_` or `j`, integers
//! too large for 32 bits, and nesting beyond limits well inside the reference path's. The
//! caller then parses with the reference path, so diagnostics, and every unusual file,
//! have one implementation. Giving up is always safe; accepting a file the reference path
//! would read differently is the bug to avoid, and `tests/parse_paths.rs` checks that the
//! two agree on every Python file in the repository and thousands of mutations of them.
//!
//! Invariants: recursion depth is bounded by [`MAX_NESTING`] levels of nested expressions and
//! blocks (each level a bounded number of frames), and the AST's expression height stays
//! below [`MAX_HEIGHT`] (under the reference path's `MAX_EXPR_DEPTH`).

use spirthon_ir::cfg::CmpOp;
use spirthon_ir::Span;

use crate::ast::*;

/// Nested parentheses, unary operators, ternaries and blocks together, before giving up.
const MAX_NESTING: u32 = 64;
/// Expression height before giving up (the reference path rejects more than 256).
const MAX_HEIGHT: u16 = 200;

/// The AST of `source`, or `None` where the reference path must decide.
pub fn parse(source: &str) -> Option<Ast> {
    let toks = lex(source.as_bytes())?;
    let mut p = Parser {
        src: source,
        toks,
        i: 0,
        ast: Ast::default(),
        heights: Vec::new(),
        nesting: 0,
    };
    p.file()?;
    Some(p.ast)
}

#[derive(Copy, Clone, PartialEq, Debug)]
enum Kw {
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

fn keyword(name: &[u8]) -> Option<Kw> {
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
        b"async" | b"await" | b"class" | b"del" | b"except" | b"finally" | b"global"
        | b"lambda" | b"nonlocal" | b"raise" | b"try" | b"with" | b"yield" => Kw::Other,
        _ => return None,
    })
}

#[derive(Copy, Clone, PartialEq, Debug)]
enum K {
    Name,
    Kw(Kw),
    Int(i64),
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
    /// An operator with no place in this subset (`{`, `;`, `:=`, `@=`, `...`, `!`…).
    Other,
}

#[derive(Copy, Clone, Debug)]
struct Tok {
    k: K,
    start: u32,
    end: u32,
}

/// Tokens with Python's NEWLINE / INDENT / DEDENT, or `None` on anything unusual.
fn lex(s: &[u8]) -> Option<Vec<Tok>> {
    let mut toks = Vec::with_capacity(s.len() / 3);
    let mut indents = vec![0usize];
    let (mut pos, mut parens, mut line_start) = (0usize, 0u32, true);
    let push = |toks: &mut Vec<Tok>, k, start: usize, end: usize| {
        toks.push(Tok {
            k,
            start: start as u32,
            end: end as u32,
        })
    };
    while pos < s.len() {
        if line_start && parens == 0 {
            let mut col = pos;
            while col < s.len() && s[col] == b' ' {
                col += 1;
            }
            match s.get(col) {
                None => break,
                Some(b'#') => {
                    pos = skip_comment(s, col);
                    continue;
                }
                Some(b'\n') => {
                    pos = col + 1;
                    continue;
                }
                Some(b'\t' | b'\x0c' | b'\r') => return None,
                Some(_) => {}
            }
            let width = col - pos;
            if width > *indents.last()? {
                indents.push(width);
                push(&mut toks, K::Indent, col, col);
            }
            while width < *indents.last()? {
                indents.pop();
                push(&mut toks, K::Dedent, col, col);
            }
            if width != *indents.last()? {
                return None;
            }
            pos = col;
            line_start = false;
        }
        let c = s[pos];
        match c {
            b' ' => pos += 1,
            b'#' => pos = skip_comment(s, pos),
            b'\n' => {
                if parens == 0 {
                    push(&mut toks, K::Newline, pos, pos + 1);
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
                push(&mut toks, k, start, pos);
            }
            b'0'..=b'9' => {
                let (k, end) = number(s, pos)?;
                push(&mut toks, k, pos, end);
                pos = end;
            }
            b'.' if s.get(pos + 1).is_some_and(u8::is_ascii_digit) => {
                let (k, end) = number(s, pos)?;
                push(&mut toks, k, pos, end);
                pos = end;
            }
            b'\'' | b'"' => {
                let end = string(s, pos)?;
                push(&mut toks, K::Str, pos, end);
                pos = end;
            }
            _ => {
                let (k, len) = operator(&s[pos..])?;
                match k {
                    K::LParen | K::LBracket => parens += 1,
                    K::RParen | K::RBracket => parens = parens.checked_sub(1)?,
                    _ => {}
                }
                push(&mut toks, k, pos, pos + len);
                pos += len;
            }
        }
    }
    if parens != 0 {
        return None;
    }
    if !line_start {
        push(&mut toks, K::Newline, s.len(), s.len());
    }
    for _ in 1..indents.len() {
        push(&mut toks, K::Dedent, s.len(), s.len());
    }
    push(&mut toks, K::Eof, s.len(), s.len());
    Some(toks)
}

fn skip_comment(s: &[u8], mut pos: usize) -> usize {
    while pos < s.len() && s[pos] != b'\n' {
        pos += 1;
    }
    pos
}

/// A decimal, hexadecimal, octal or binary literal starting at `start`.
fn number(s: &[u8], start: usize) -> Option<(K, usize)> {
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
        if pos == digits || pos - digits > 32 || continues_word(s, pos) {
            return None;
        }
        let text = std::str::from_utf8(&s[digits..pos]).ok()?;
        let value = u64::from_str_radix(text, radix).ok()?;
        return (value <= u64::from(u32::MAX)).then_some((K::Int(value as i64), pos));
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
    if whole > 10 {
        return None;
    }
    let value: u64 = text.parse().ok()?;
    (value <= u64::from(u32::MAX)).then_some((K::Int(value as i64), pos))
}

/// Whether a number is followed by a letter, digit or `_` (`1j`, `1_0`, `0x1g`): not ours.
fn continues_word(s: &[u8], pos: usize) -> bool {
    s.get(pos)
        .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
}

/// The end of the (unprefixed) string literal starting at `start`.
fn string(s: &[u8], start: usize) -> Option<usize> {
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
fn operator(s: &[u8]) -> Option<(K, usize)> {
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
        (b':', b'=', _) | (b'@', b'=', _) => (K::Other, 2),
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

struct Parser<'s> {
    src: &'s str,
    toks: Vec<Tok>,
    i: usize,
    ast: Ast,
    /// Height of each expression node, parallel to `ast.exprs`.
    heights: Vec<u16>,
    nesting: u32,
}

/// The expression ids a node refers to.
fn children(kind: &ExprKind, mut f: impl FnMut(ExprId)) {
    match kind {
        ExprKind::Attr(a, _) | ExprKind::Unary(_, a) => f(*a),
        ExprKind::Subscript(a, b) | ExprKind::Binary(_, a, b) => {
            f(*a);
            f(*b);
        }
        ExprKind::Call {
            func,
            args,
            keywords,
        } => {
            f(*func);
            args.iter().for_each(|&a| f(a));
            keywords.iter().for_each(|k| f(k.value));
        }
        ExprKind::BoolOp(_, v) | ExprKind::Tuple(v) => v.iter().for_each(|&a| f(a)),
        ExprKind::Compare(a, rest) => {
            f(*a);
            rest.iter().for_each(|r| f(r.1));
        }
        ExprKind::IfExp(a, b, c) => {
            f(*a);
            f(*b);
            f(*c);
        }
        _ => {}
    }
}

/// Applies `map` to every expression id a node refers to.
fn remap(kind: &mut ExprKind, map: impl Fn(ExprId) -> ExprId) {
    match kind {
        ExprKind::Attr(a, _) | ExprKind::Unary(_, a) => *a = map(*a),
        ExprKind::Subscript(a, b) | ExprKind::Binary(_, a, b) => {
            *a = map(*a);
            *b = map(*b);
        }
        ExprKind::Call {
            func,
            args,
            keywords,
        } => {
            *func = map(*func);
            args.iter_mut().for_each(|a| *a = map(*a));
            keywords.iter_mut().for_each(|k| k.value = map(k.value));
        }
        ExprKind::BoolOp(_, v) | ExprKind::Tuple(v) => v.iter_mut().for_each(|a| *a = map(*a)),
        ExprKind::Compare(a, rest) => {
            *a = map(*a);
            rest.iter_mut().for_each(|r| r.1 = map(r.1));
        }
        ExprKind::IfExp(a, b, c) => {
            *a = map(*a);
            *b = map(*b);
            *c = map(*c);
        }
        _ => {}
    }
}

impl Parser<'_> {
    fn peek(&self) -> K {
        self.toks[self.i].k
    }

    fn peek_at(&self, ahead: usize) -> K {
        self.toks[(self.i + ahead).min(self.toks.len() - 1)].k
    }

    fn tok(&self) -> Tok {
        self.toks[self.i]
    }

    fn bump(&mut self) -> Tok {
        let t = self.toks[self.i];
        if t.k != K::Eof {
            self.i += 1;
        }
        t
    }

    fn eat(&mut self, k: K) -> bool {
        let hit = self.peek() == k;
        if hit {
            self.bump();
        }
        hit
    }

    fn expect(&mut self, k: K) -> Option<Tok> {
        (self.peek() == k).then(|| self.bump())
    }

    /// The end of the last token consumed.
    fn prev_end(&self) -> u32 {
        self.toks[self.i - 1].end
    }

    fn text(&self, t: Tok) -> &str {
        &self.src[t.start as usize..t.end as usize]
    }

    fn name(&mut self) -> Option<(String, Tok)> {
        let t = self.expect(K::Name)?;
        Some((self.text(t).to_string(), t))
    }

    fn enter(&mut self) -> Option<()> {
        self.nesting += 1;
        (self.nesting <= MAX_NESTING).then_some(())
    }

    fn leave(&mut self) {
        self.nesting -= 1;
    }

    fn node(&mut self, kind: ExprKind, start: u32, end: u32) -> Option<ExprId> {
        let mut height = 0;
        children(&kind, |c| height = height.max(self.heights[c.0 as usize]));
        if height + 1 > MAX_HEIGHT {
            return None;
        }
        self.heights.push(height + 1);
        Some(self.ast.add_expr(kind, Span::new(start, end)))
    }

    // ---- top level ------------------------------------------------------------------

    fn file(&mut self) -> Option<()> {
        loop {
            match self.peek() {
                K::Eof => return Some(()),
                K::Kw(Kw::Import) => self.import()?,
                K::Kw(Kw::From) => self.import_from()?,
                K::At => {
                    let def = self.def()?;
                    self.ast.items.push(Item::Def(def));
                }
                K::Str => {
                    self.bump();
                    self.expect(K::Newline)?;
                }
                K::Name => self.constant()?,
                _ => return None,
            }
        }
    }

    /// `a.b.c` as one string, with the first and last tokens.
    fn dotted(&mut self) -> Option<(String, Tok, Tok)> {
        let (mut name, first) = self.name()?;
        let mut last = first;
        while self.eat(K::Dot) {
            let (part, t) = self.name()?;
            name.push('.');
            name.push_str(&part);
            last = t;
        }
        Some((name, first, last))
    }

    fn import(&mut self) -> Option<()> {
        self.bump();
        loop {
            let (module, first, mut last) = self.dotted()?;
            let alias = if self.eat(K::Kw(Kw::As)) {
                let (alias, t) = self.name()?;
                last = t;
                alias
            } else {
                module.split('.').next().unwrap_or("").to_string()
            };
            self.ast.items.push(Item::Import {
                module,
                alias,
                span: Span::new(first.start, last.end),
            });
            if !self.eat(K::Comma) {
                break;
            }
        }
        self.expect(K::Newline).map(|_| ())
    }

    fn import_from(&mut self) -> Option<()> {
        let start = self.bump().start;
        let (module, ..) = self.dotted()?;
        self.expect(K::Kw(Kw::Import))?;
        let mut names = Vec::new();
        if self.peek() == K::Bin(BinaryOp::Mul) {
            let t = self.bump();
            names.push(("*".to_string(), "*".to_string(), Span::new(t.start, t.end)));
        } else {
            let parens = self.eat(K::LParen);
            loop {
                let (name, first) = self.name()?;
                let (alias, end) = if self.eat(K::Kw(Kw::As)) {
                    let (alias, t) = self.name()?;
                    (alias, t.end)
                } else {
                    (name.clone(), first.end)
                };
                names.push((name, alias, Span::new(first.start, end)));
                if !self.eat(K::Comma) || (parens && self.peek() == K::RParen) {
                    break;
                }
            }
            if parens {
                self.expect(K::RParen)?;
            }
        }
        let span = Span::new(start, self.prev_end());
        self.expect(K::Newline)?;
        self.ast.items.push(Item::ImportFrom {
            module,
            names,
            span,
        });
        Some(())
    }

    /// `NAME = expr` or `NAME: T = expr` at top level.
    fn constant(&mut self) -> Option<()> {
        let (name, first) = self.name()?;
        let annotation = if self.eat(K::Colon) {
            Some(self.test()?)
        } else {
            None
        };
        self.expect(K::Assign)?;
        let value = self.test_list()?;
        let span = Span::new(first.start, self.prev_end());
        self.expect(K::Newline)?;
        self.ast.items.push(Item::Assign {
            name,
            annotation,
            value,
            span,
        });
        Some(())
    }

    fn def(&mut self) -> Option<FuncDef> {
        let (e0, s0) = (self.ast.exprs.len() as u32, self.ast.stmts.len() as u32);
        let mut decorators = Vec::new();
        while self.eat(K::At) {
            decorators.push(self.test()?);
            self.expect(K::Newline)?;
        }
        if !decorators.iter().any(|&d| self.is_device_decorator(d)) {
            return None;
        }
        let start = self.expect(K::Kw(Kw::Def))?.start;
        let (name, _) = self.name()?;
        let name_span = Span::new(start, start + 4 + name.len() as u32);
        self.expect(K::LParen)?;
        let mut params = Vec::new();
        while self.peek() != K::RParen {
            let (pname, t) = self.name()?;
            let annotation = if self.eat(K::Colon) {
                Some(self.test()?)
            } else {
                None
            };
            params.push(Param {
                name: pname,
                annotation,
                span: Span::new(t.start, self.prev_end()),
            });
            if !self.eat(K::Comma) {
                break;
            }
        }
        self.expect(K::RParen)?;
        let returns = if self.eat(K::Arrow) {
            Some(self.test()?)
        } else {
            None
        };
        self.expect(K::Colon)?;
        let (body, _) = self.suite()?;
        Some(FuncDef {
            name,
            name_span,
            decorators,
            params,
            returns,
            body,
            exprs: e0..self.ast.exprs.len() as u32,
            stmts: s0..self.ast.stmts.len() as u32,
        })
    }

    fn is_device_decorator(&self, d: ExprId) -> bool {
        let target = match &self.ast.expr(d).kind {
            ExprKind::Call { func, .. } => *func,
            _ => d,
        };
        match &self.ast.expr(target).kind {
            ExprKind::Name(n) | ExprKind::Attr(_, n) => matches!(n.as_str(), "kernel" | "func"),
            _ => false,
        }
    }

    // ---- statements -----------------------------------------------------------------

    /// `NEWLINE INDENT stmt+ DEDENT`, and where its last statement ends. A leading string
    /// statement is a docstring: it goes, but still ends a suite of nothing else.
    fn suite(&mut self) -> Option<(Vec<StmtId>, u32)> {
        self.expect(K::Newline)?;
        self.expect(K::Indent)?;
        self.enter()?;
        let mut end = 0;
        if self.peek() == K::Str && self.peek_at(1) == K::Newline {
            end = self.bump().end;
            self.bump();
        }
        let mut body = Vec::new();
        while !self.eat(K::Dedent) {
            let s = self.stmt()?;
            end = self.ast.stmt(s).span.end;
            body.push(s);
        }
        self.leave();
        Some((body, end))
    }

    fn stmt(&mut self) -> Option<StmtId> {
        let t = self.tok();
        let kind = match t.k {
            K::Kw(Kw::If) => return self.if_stmt(),
            K::Kw(Kw::While) => {
                self.bump();
                let test = self.test()?;
                self.expect(K::Colon)?;
                let (body, body_end) = self.suite()?;
                let (orelse, end) = self.else_suite(body_end)?;
                let kind = StmtKind::While(test, body, orelse);
                return Some(self.ast.add_stmt(kind, Span::new(t.start, end)));
            }
            K::Kw(Kw::For) => {
                self.bump();
                let target = self.target_list()?;
                self.expect(K::Kw(Kw::In))?;
                let iter = self.test_list()?;
                self.expect(K::Colon)?;
                let (body, body_end) = self.suite()?;
                let (orelse, end) = self.else_suite(body_end)?;
                let kind = StmtKind::For(target, iter, body, orelse);
                return Some(self.ast.add_stmt(kind, Span::new(t.start, end)));
            }
            K::Kw(Kw::Break) => {
                self.bump();
                StmtKind::Break
            }
            K::Kw(Kw::Continue) => {
                self.bump();
                StmtKind::Continue
            }
            K::Kw(Kw::Pass) => {
                self.bump();
                StmtKind::Pass
            }
            K::Kw(Kw::Return) => {
                self.bump();
                let value = match self.peek() {
                    K::Newline => None,
                    _ => Some(self.test_list()?),
                };
                StmtKind::Return(value)
            }
            K::Kw(Kw::Assert) => {
                self.bump();
                StmtKind::Assert(self.test()?)
            }
            K::Kw(_) if !self.can_start_expr() => return None,
            _ => self.simple()?,
        };
        let span = Span::new(t.start, self.prev_end());
        self.expect(K::Newline)?;
        Some(self.ast.add_stmt(kind, span))
    }

    /// `if` with its `elif` chain: each `elif` is an `If` in the `else` of the one before,
    /// spanning from its keyword to the end of the whole chain. The chain is read in a loop
    /// (it may be thousands long) and its `If`s are added innermost first, as the reference
    /// path's conversion adds them.
    fn if_stmt(&mut self) -> Option<StmtId> {
        let mut links = Vec::new();
        let (mut orelse, end) = loop {
            let start = self.bump().start;
            let test = self.test()?;
            self.expect(K::Colon)?;
            let (body, body_end) = self.suite()?;
            links.push((start, test, body));
            if self.peek() != K::Kw(Kw::Elif) {
                break self.else_suite(body_end)?;
            }
        };
        let mut id = None;
        for (start, test, body) in links.into_iter().rev() {
            let kind = StmtKind::If(test, body, orelse);
            let s = self.ast.add_stmt(kind, Span::new(start, end));
            orelse = vec![s];
            id = Some(s);
        }
        id
    }

    /// An optional `else:` suite and where the whole statement ends (`end` without one).
    fn else_suite(&mut self, end: u32) -> Option<(Vec<StmtId>, u32)> {
        if !self.eat(K::Kw(Kw::Else)) {
            return Some((Vec::new(), end));
        }
        self.expect(K::Colon)?;
        self.suite()
    }

    /// Expression statements and the three kinds of assignment.
    fn simple(&mut self) -> Option<StmtKind> {
        let first = self.test_list()?;
        Some(match self.peek() {
            K::Assign => {
                let mut targets = vec![first];
                self.bump();
                let mut value = self.test_list()?;
                while self.eat(K::Assign) {
                    targets.push(value);
                    value = self.test_list()?;
                }
                StmtKind::Assign(targets, value)
            }
            K::Aug(op) => {
                self.bump();
                StmtKind::AugAssign(first, op, self.test_list()?)
            }
            K::Colon => {
                if matches!(self.ast.expr(first).kind, ExprKind::Tuple(_)) {
                    return None;
                }
                self.bump();
                let annotation = self.test()?;
                let value = match self.eat(K::Assign) {
                    true => Some(self.test_list()?),
                    false => None,
                };
                StmtKind::AnnAssign(first, annotation, value)
            }
            _ => StmtKind::Expr(first),
        })
    }

    // ---- expressions ----------------------------------------------------------------

    /// `a, b, c` (a tuple spanning its elements and any trailing comma) or one expression.
    fn list_of(&mut self, item: fn(&mut Self) -> Option<ExprId>) -> Option<ExprId> {
        let start = self.tok().start;
        let first = item(self)?;
        if self.peek() != K::Comma {
            return Some(first);
        }
        let mut elts = vec![first];
        while self.eat(K::Comma) {
            if !self.can_start_expr() {
                break;
            }
            elts.push(item(self)?);
        }
        self.node(ExprKind::Tuple(elts), start, self.prev_end())
    }

    fn can_start_expr(&self) -> bool {
        matches!(
            self.peek(),
            K::Name
                | K::Int(_)
                | K::Float(_)
                | K::LParen
                | K::Tilde
                | K::Bin(BinaryOp::Add | BinaryOp::Sub)
                | K::Kw(Kw::Not | Kw::True | Kw::False | Kw::None)
        )
    }

    fn test_list(&mut self) -> Option<ExprId> {
        self.list_of(Self::test)
    }

    fn target_list(&mut self) -> Option<ExprId> {
        self.list_of(Self::bit_or)
    }

    /// A full expression: `body if test else orelse`, or an `or` chain.
    fn test(&mut self) -> Option<ExprId> {
        self.enter()?;
        let (body_at, start) = (self.ast.exprs.len(), self.tok().start);
        let body = self.or_test()?;
        let result = if self.eat(K::Kw(Kw::If)) {
            let test_at = self.ast.exprs.len();
            let test = self.or_test()?;
            self.expect(K::Kw(Kw::Else))?;
            let orelse_at = self.ast.exprs.len();
            let orelse = self.test()?;
            let (test, body) = self.test_first(body_at, test_at, orelse_at, test, body);
            self.node(ExprKind::IfExp(test, body, orelse), start, self.prev_end())?
        } else {
            body
        };
        self.leave();
        Some(result)
    }

    /// The reference path builds a ternary's test before its body; source order is the
    /// other way round. Rotates the arena slots `[body_at, test_at)` (the body) behind
    /// `[test_at, orelse_at)` (the test), renumbering references; returns the new ids of
    /// the test and the body.
    fn test_first(
        &mut self,
        body_at: usize,
        test_at: usize,
        orelse_at: usize,
        test: ExprId,
        body: ExprId,
    ) -> (ExprId, ExprId) {
        let (body_len, test_len) = (test_at - body_at, orelse_at - test_at);
        let map = |e: ExprId| {
            let i = e.0 as usize;
            if (body_at..test_at).contains(&i) {
                ExprId((i + test_len) as u32)
            } else if (test_at..orelse_at).contains(&i) {
                ExprId((i - body_len) as u32)
            } else {
                e
            }
        };
        for e in &mut self.ast.exprs[body_at..orelse_at] {
            remap(&mut e.kind, map);
        }
        self.ast.exprs[body_at..orelse_at].rotate_left(body_len);
        self.heights[body_at..orelse_at].rotate_left(body_len);
        (map(test), map(body))
    }

    fn or_test(&mut self) -> Option<ExprId> {
        self.bool_chain(Kw::Or, Self::and_test)
    }

    fn and_test(&mut self) -> Option<ExprId> {
        self.bool_chain(Kw::And, Self::not_test)
    }

    fn bool_chain(&mut self, kw: Kw, operand: fn(&mut Self) -> Option<ExprId>) -> Option<ExprId> {
        let start = self.tok().start;
        let first = operand(self)?;
        if self.peek() != K::Kw(kw) {
            return Some(first);
        }
        let mut values = vec![first];
        while self.eat(K::Kw(kw)) {
            values.push(operand(self)?);
        }
        self.node(
            ExprKind::BoolOp(kw == Kw::And, values),
            start,
            self.prev_end(),
        )
    }

    fn not_test(&mut self) -> Option<ExprId> {
        if self.peek() != K::Kw(Kw::Not) {
            return self.comparison();
        }
        let start = self.bump().start;
        self.enter()?;
        let operand = self.not_test()?;
        self.leave();
        self.node(
            ExprKind::Unary(UnaryOp::Not, operand),
            start,
            self.prev_end(),
        )
    }

    fn comparison(&mut self) -> Option<ExprId> {
        let start = self.tok().start;
        let left = self.bit_or()?;
        let mut rest = Vec::new();
        loop {
            match self.peek() {
                K::Cmp(op) => {
                    self.bump();
                    rest.push((op, self.bit_or()?));
                }
                K::Kw(Kw::In | Kw::Not | Kw::Is) => return None,
                _ => break,
            }
        }
        if rest.is_empty() {
            return Some(left);
        }
        self.node(ExprKind::Compare(left, rest), start, self.prev_end())
    }

    fn bit_or(&mut self) -> Option<ExprId> {
        self.binary_level(0)
    }

    /// Left-associative binary operators, loosest first: `|`, `^`, `&`, shifts, `+ -`,
    /// `* / // %`.
    fn binary_level(&mut self, level: usize) -> Option<ExprId> {
        use BinaryOp as B;
        const LEVELS: [&[BinaryOp]; 6] = [
            &[B::BitOr],
            &[B::BitXor],
            &[B::BitAnd],
            &[B::Shl, B::Shr],
            &[B::Add, B::Sub],
            &[B::Mul, B::Div, B::FloorDiv, B::Mod],
        ];
        let operand = |p: &mut Self| {
            if level + 1 < LEVELS.len() {
                p.binary_level(level + 1)
            } else {
                p.factor()
            }
        };
        let start = self.tok().start;
        let mut left = operand(self)?;
        while let K::Bin(op) = self.peek() {
            if !LEVELS[level].contains(&op) {
                break;
            }
            self.bump();
            let right = operand(self)?;
            left = self.node(ExprKind::Binary(op, left, right), start, self.prev_end())?;
        }
        if self.peek() == K::At {
            return None; // matrix multiplication
        }
        Some(left)
    }

    fn factor(&mut self) -> Option<ExprId> {
        let op = match self.peek() {
            K::Bin(BinaryOp::Sub) => UnaryOp::Neg,
            K::Bin(BinaryOp::Add) => UnaryOp::Pos,
            K::Tilde => UnaryOp::Invert,
            _ => return self.power(),
        };
        let start = self.bump().start;
        self.enter()?;
        let operand = self.factor()?;
        self.leave();
        self.node(ExprKind::Unary(op, operand), start, self.prev_end())
    }

    fn power(&mut self) -> Option<ExprId> {
        let start = self.tok().start;
        let base = self.primary()?;
        if self.peek() != K::Bin(BinaryOp::Pow) {
            return Some(base);
        }
        self.bump();
        self.enter()?;
        let exponent = self.factor()?;
        self.leave();
        self.node(
            ExprKind::Binary(BinaryOp::Pow, base, exponent),
            start,
            self.prev_end(),
        )
    }

    /// An atom followed by attribute, call and subscript trailers.
    fn primary(&mut self) -> Option<ExprId> {
        let start = self.tok().start;
        let mut e = self.atom()?;
        loop {
            e = match self.peek() {
                K::Dot => {
                    self.bump();
                    let (attr, t) = self.name()?;
                    self.node(ExprKind::Attr(e, attr), start, t.end)?
                }
                K::LParen => {
                    self.bump();
                    let kind = self.call_args(e)?;
                    let end = self.expect(K::RParen)?.end;
                    self.node(kind, start, end)?
                }
                K::LBracket => {
                    self.bump();
                    let index = self.list_of(Self::test)?;
                    let end = self.expect(K::RBracket)?.end;
                    self.node(ExprKind::Subscript(e, index), start, end)?
                }
                _ => return Some(e),
            };
        }
    }

    fn call_args(&mut self, func: ExprId) -> Option<ExprKind> {
        let (mut args, mut keywords) = (Vec::new(), Vec::new());
        while self.peek() != K::RParen {
            if self.peek() == K::Name && self.peek_at(1) == K::Assign {
                let (name, t) = self.name()?;
                self.bump();
                let value = self.test()?;
                let span = Span::new(t.start, self.prev_end());
                keywords.push(Keyword { name, value, span });
            } else if keywords.is_empty() {
                args.push(self.test()?);
            } else {
                return None;
            }
            if !self.eat(K::Comma) {
                break;
            }
        }
        Some(ExprKind::Call {
            func,
            args,
            keywords,
        })
    }

    fn atom(&mut self) -> Option<ExprId> {
        let t = self.tok();
        let kind = match t.k {
            K::Name => ExprKind::Name(self.text(t).to_string()),
            K::Int(v) => ExprKind::Int(v),
            K::Float(v) => ExprKind::Float(v),
            K::Kw(Kw::True) => ExprKind::Bool(true),
            K::Kw(Kw::False) => ExprKind::Bool(false),
            K::Kw(Kw::None) => ExprKind::None,
            K::LParen => return self.parenthesized(),
            _ => return None,
        };
        self.bump();
        self.node(kind, t.start, t.end)
    }

    /// `()` and `(a, b)` are tuples spanning their parentheses; `(a)` is `a`, spanning `a`.
    fn parenthesized(&mut self) -> Option<ExprId> {
        let start = self.bump().start;
        self.enter()?;
        let mut elts = Vec::new();
        let mut comma = false;
        while self.peek() != K::RParen {
            elts.push(self.test()?);
            comma = self.eat(K::Comma);
            if !comma {
                break;
            }
        }
        let end = self.expect(K::RParen)?.end;
        self.leave();
        match elts[..] {
            [one] if !comma => Some(one),
            _ => self.node(ExprKind::Tuple(elts), start, end),
        }
    }
}
