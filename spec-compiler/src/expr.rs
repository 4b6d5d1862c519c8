//! The rule expression language (grammar in spec/README.md): lexer, parser,
//! type checker and Rust code generator. A rule's `when` / `check` strings are
//! compiled into Rust over the generated `Props` trait, so the table *is* the rule.

use std::collections::BTreeMap;

/// Value types of expressions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ty {
    Int,
    Bool,
    /// An enumeration: `type` (DataType), `opcode` (Opcode) or a properties.toml enum.
    Enum(String),
    /// A string literal whose enumeration is not known yet.
    Str,
}

impl Ty {
    fn show(&self) -> String {
        match self {
            Ty::Int => "int".into(),
            Ty::Bool => "bool".into(),
            Ty::Enum(e) => format!("enum `{e}`"),
            Ty::Str => "string".into(),
        }
    }
}

/// What the expression may refer to.
pub struct Vocab<'a> {
    /// (scope, name) -> type name, scope in insn / dst / src.
    pub props: &'a BTreeMap<(String, String), String>,
    /// enum name -> (Rust type name, values, Rust variant names).
    pub enums: &'a BTreeMap<String, EnumInfo>,
    /// Whether `src.` is allowed (foreach = "src").
    pub foreach_src: bool,
}

#[derive(Debug, Clone)]
pub struct EnumInfo {
    pub rust: String,
    pub values: Vec<String>,
    pub variants: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Int(i64),
    Str(String),
    Ident(String),
    Op(&'static str),
}

fn lex(s: &str) -> Result<Vec<(Tok, usize)>, (usize, String)> {
    let b = s.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    const OPS: [&str; 20] = [
        "&&", "||", "==", "!=", "<=", ">=", "<", ">", "!", "+", "-", "*", "/", "%", "(", ")", "[",
        "]", ",", ".",
    ];
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if c.is_ascii_digit() {
            let (radix, from) = if s[i..].starts_with("0x") || s[i..].starts_with("0X") {
                (16, i + 2)
            } else {
                (10, i)
            };
            let mut j = from;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                j += 1;
            }
            let digits: String = s[from..j].chars().filter(|c| *c != '_').collect();
            let v = i64::from_str_radix(&digits, radix)
                .map_err(|_| (start, format!("bad number `{}`", &s[start..j])))?;
            out.push((Tok::Int(v), start));
            i = j;
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let mut j = i;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                j += 1;
            }
            out.push((Tok::Ident(s[i..j].to_string()), start));
            i = j;
            continue;
        }
        if c == b'"' || c == b'\'' {
            let q = c;
            let mut j = i + 1;
            while j < b.len() && b[j] != q {
                j += 1;
            }
            if j >= b.len() {
                return Err((start, "unterminated string".into()));
            }
            out.push((Tok::Str(s[i + 1..j].to_string()), start));
            i = j + 1;
            continue;
        }
        match OPS.iter().find(|op| s[i..].starts_with(**op)) {
            Some(op) => {
                out.push((Tok::Op(op), start));
                i += op.len();
            }
            None => {
                let ch = s[i..].chars().next().unwrap_or('?');
                return Err((start, format!("unexpected character `{ch}`")));
            }
        }
    }
    Ok(out)
}

/// Parsed expression.
#[derive(Debug, Clone)]
pub enum Expr {
    Int(i64),
    Str(String, usize),
    /// (scope, name, src index or None for `src.`), offset
    Prop(String, String, Option<u8>, usize),
    Unary(&'static str, Box<Expr>),
    Binary(&'static str, Box<Expr>, Box<Expr>),
    In(Box<Expr>, Vec<Expr>, bool),
    Call(String, Vec<Expr>, usize),
}

struct Parser {
    toks: Vec<(Tok, usize)>,
    pos: usize,
    end: usize,
}

type PResult<T> = Result<T, (usize, String)>;

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.0)
    }
    fn off(&self) -> usize {
        self.toks.get(self.pos).map(|t| t.1).unwrap_or(self.end)
    }
    fn eat(&mut self, op: &str) -> bool {
        if let Some(Tok::Op(o)) = self.peek() {
            if *o == op {
                self.pos += 1;
                return true;
            }
        }
        false
    }
    fn expect(&mut self, op: &str) -> PResult<()> {
        if self.eat(op) {
            Ok(())
        } else {
            Err((self.off(), format!("expected `{op}`")))
        }
    }
    fn or(&mut self) -> PResult<Expr> {
        let mut l = self.and()?;
        while self.eat("||") {
            let r = self.and()?;
            l = Expr::Binary("||", Box::new(l), Box::new(r));
        }
        Ok(l)
    }
    fn and(&mut self) -> PResult<Expr> {
        let mut l = self.not()?;
        while self.eat("&&") {
            let r = self.not()?;
            l = Expr::Binary("&&", Box::new(l), Box::new(r));
        }
        Ok(l)
    }
    fn not(&mut self) -> PResult<Expr> {
        if self.eat("!") {
            return Ok(Expr::Unary("!", Box::new(self.not()?)));
        }
        self.cmp()
    }
    fn cmp(&mut self) -> PResult<Expr> {
        let l = self.sum()?;
        for op in ["==", "!=", "<=", ">=", "<", ">"] {
            if self.eat(op) {
                let r = self.sum()?;
                let op: &'static str = match op {
                    "==" => "==",
                    "!=" => "!=",
                    "<=" => "<=",
                    ">=" => ">=",
                    "<" => "<",
                    _ => ">",
                };
                return Ok(Expr::Binary(op, Box::new(l), Box::new(r)));
            }
        }
        let negated = if matches!(self.peek(), Some(Tok::Op("!")))
            && matches!(self.toks.get(self.pos + 1), Some((Tok::Ident(w), _)) if w == "in")
        {
            self.pos += 1;
            true
        } else {
            false
        };
        if matches!(self.peek(), Some(Tok::Ident(w)) if w == "in") {
            self.pos += 1;
            self.expect("[")?;
            let mut items = vec![self.or()?];
            while self.eat(",") {
                items.push(self.or()?);
            }
            self.expect("]")?;
            return Ok(Expr::In(Box::new(l), items, negated));
        }
        if negated {
            return Err((self.off(), "expected `in` after `!`".into()));
        }
        Ok(l)
    }
    fn sum(&mut self) -> PResult<Expr> {
        let mut l = self.prod()?;
        loop {
            let op = if self.eat("+") {
                "+"
            } else if self.eat("-") {
                "-"
            } else {
                return Ok(l);
            };
            let r = self.prod()?;
            l = Expr::Binary(op, Box::new(l), Box::new(r));
        }
    }
    fn prod(&mut self) -> PResult<Expr> {
        let mut l = self.unary()?;
        loop {
            let op = if self.eat("*") {
                "*"
            } else if self.eat("/") {
                "/"
            } else if self.eat("%") {
                "%"
            } else {
                return Ok(l);
            };
            let r = self.unary()?;
            l = Expr::Binary(op, Box::new(l), Box::new(r));
        }
    }
    fn unary(&mut self) -> PResult<Expr> {
        if self.eat("-") {
            return Ok(Expr::Unary("-", Box::new(self.unary()?)));
        }
        self.atom()
    }
    fn atom(&mut self) -> PResult<Expr> {
        let off = self.off();
        match self.toks.get(self.pos).cloned() {
            Some((Tok::Int(v), _)) => {
                self.pos += 1;
                Ok(Expr::Int(v))
            }
            Some((Tok::Str(s), o)) => {
                self.pos += 1;
                Ok(Expr::Str(s, o))
            }
            Some((Tok::Op("("), _)) => {
                self.pos += 1;
                let e = self.or()?;
                self.expect(")")?;
                Ok(e)
            }
            Some((Tok::Ident(name), o)) => {
                self.pos += 1;
                if self.eat("(") {
                    let mut args = Vec::new();
                    if !self.eat(")") {
                        args.push(self.or()?);
                        while self.eat(",") {
                            args.push(self.or()?);
                        }
                        self.expect(")")?;
                    }
                    return Ok(Expr::Call(name, args, o));
                }
                if self.eat(".") {
                    let field = match self.toks.get(self.pos).cloned() {
                        Some((Tok::Ident(f), _)) => {
                            self.pos += 1;
                            f
                        }
                        _ => {
                            return Err((
                                self.off(),
                                format!("expected a property after `{name}.`"),
                            ))
                        }
                    };
                    let (scope, idx) = match name.as_str() {
                        "dst" => ("dst", None),
                        "src" => ("src", None),
                        "src0" => ("src", Some(0)),
                        "src1" => ("src", Some(1)),
                        "src2" => ("src", Some(2)),
                        _ => {
                            return Err((
                                o,
                                format!(
                                "unknown operand `{name}` (expected dst, src, src0, src1, src2)"
                            ),
                            ))
                        }
                    };
                    return Ok(Expr::Prop(scope.into(), field, idx, o));
                }
                Ok(Expr::Prop("insn".into(), name, None, o))
            }
            _ => Err((
                off,
                "expected a value, property, function call or `(`".into(),
            )),
        }
    }
}

/// Parse an expression string. Errors carry a byte offset into `s`.
pub fn parse(s: &str) -> PResult<Expr> {
    let toks = lex(s)?;
    let mut p = Parser {
        toks,
        pos: 0,
        end: s.len(),
    };
    let e = p.or()?;
    if p.pos != p.toks.len() {
        return Err((p.off(), "unexpected text after the expression".into()));
    }
    Ok(e)
}

/// Type-check `e` and generate Rust code over `p: &P` (P: Props) and `s: usize`
/// (the current source index in a foreach="src" rule).
pub fn compile(e: &Expr, v: &Vocab) -> PResult<(Ty, String)> {
    match e {
        Expr::Int(i) => Ok((Ty::Int, format!("{i}i64"))),
        Expr::Str(_, o) => Err((
            *o,
            "a string must be compared with an enumeration-typed value (==, != or in)".into(),
        )),
        Expr::Prop(scope, name, idx, o) => {
            let ty = v.props.get(&(scope.clone(), name.clone())).ok_or_else(|| {
                let shown = match (scope.as_str(), idx) {
                    ("insn", _) => name.clone(),
                    ("dst", _) => format!("dst.{name}"),
                    (_, Some(i)) => format!("src{i}.{name}"),
                    _ => format!("src.{name}"),
                };
                (
                    *o,
                    format!("unknown name `{shown}` (not declared in properties.toml)"),
                )
            })?;
            let ty = prop_ty(ty);
            let code = match (scope.as_str(), idx) {
                ("insn", _) => format!("p.{name}()"),
                ("dst", _) => format!("p.dst_{name}()"),
                (_, Some(i)) => format!("p.src_{name}({i})"),
                _ => {
                    if !v.foreach_src {
                        return Err((
                            *o,
                            format!(
                                "`src.{name}` needs foreach = \"src\" (or name src0/src1/src2)"
                            ),
                        ));
                    }
                    format!("p.src_{name}(s)")
                }
            };
            Ok((ty, code))
        }
        Expr::Unary(op, x) => {
            let (t, c) = compile(x, v)?;
            match (*op, &t) {
                ("!", Ty::Bool) => Ok((Ty::Bool, format!("(!{c})"))),
                ("-", Ty::Int) => Ok((Ty::Int, format!("{c}.wrapping_neg()"))),
                _ => Err((offset(x), format!("`{op}` cannot apply to {}", t.show()))),
            }
        }
        Expr::Binary(op, l, r) => binary(op, l, r, v),
        Expr::In(x, items, negated) => {
            let (t, c) = compile(x, v)?;
            let mut parts = Vec::new();
            for it in items {
                let (it_ty, ic) = operand_against(it, &t, v)?;
                if it_ty != t {
                    return Err((
                        offset(it),
                        format!(
                            "list item is {} but the value is {}",
                            it_ty.show(),
                            t.show()
                        ),
                    ));
                }
                parts.push(format!("__v == {ic}"));
            }
            let body = format!("{{ let __v = {c}; {} }}", parts.join(" || "));
            Ok((Ty::Bool, if *negated { format!("(!{body})") } else { body }))
        }
        Expr::Call(name, args, o) => call(name, args, *o, v),
    }
}

fn prop_ty(t: &str) -> Ty {
    match t {
        "int" => Ty::Int,
        "bool" => Ty::Bool,
        other => Ty::Enum(other.to_string()),
    }
}

fn offset(e: &Expr) -> usize {
    match e {
        Expr::Str(_, o) | Expr::Prop(_, _, _, o) | Expr::Call(_, _, o) => *o,
        Expr::Unary(_, x) | Expr::In(x, _, _) => offset(x),
        Expr::Binary(_, l, _) => offset(l),
        Expr::Int(_) => 0,
    }
}

/// Compile `e` where it is compared with a value of type `other`: a string
/// literal is resolved against `other`'s enumeration.
fn operand_against(e: &Expr, other: &Ty, v: &Vocab) -> PResult<(Ty, String)> {
    if let Expr::Str(s, o) = e {
        let Ty::Enum(en) = other else {
            return Err((*o, format!("string \"{s}\" compared with {}", other.show())));
        };
        let info = v
            .enums
            .get(en)
            .ok_or_else(|| (*o, format!("no enumeration `{en}`")))?;
        let i = info
            .values
            .iter()
            .position(|x| x.eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                (
                    *o,
                    format!(
                        "\"{s}\" is not a value of `{en}` (values: {})",
                        info.values.join(", ")
                    ),
                )
            })?;
        return Ok((
            other.clone(),
            format!("{}::{}", info.rust, info.variants[i]),
        ));
    }
    compile(e, v)
}

fn binary(op: &'static str, l: &Expr, r: &Expr, v: &Vocab) -> PResult<(Ty, String)> {
    // Resolve string literals against the other side.
    let (lt, lc, rt, rc) = match (l, r) {
        (Expr::Str(..), Expr::Str(..)) => {
            return Err((offset(l), "cannot compare two strings".into()))
        }
        (Expr::Str(..), _) => {
            let (rt, rc) = compile(r, v)?;
            let (lt, lc) = operand_against(l, &rt, v)?;
            (lt, lc, rt, rc)
        }
        _ => {
            let (lt, lc) = compile(l, v)?;
            let (rt, rc) = operand_against(r, &lt, v)?;
            (lt, lc, rt, rc)
        }
    };
    let bad = |what: &str| {
        Err((
            offset(l),
            format!("`{op}` needs {what}, found {} and {}", lt.show(), rt.show()),
        ))
    };
    match op {
        "&&" | "||" => {
            if lt == Ty::Bool && rt == Ty::Bool {
                Ok((Ty::Bool, format!("({lc} {op} {rc})")))
            } else {
                bad("two bools")
            }
        }
        "==" | "!=" => {
            if lt == rt {
                Ok((Ty::Bool, format!("({lc} {op} {rc})")))
            } else {
                bad("two values of the same type")
            }
        }
        "<" | "<=" | ">" | ">=" => {
            if lt == Ty::Int && rt == Ty::Int {
                Ok((Ty::Bool, format!("({lc} {op} {rc})")))
            } else {
                bad("two ints")
            }
        }
        "+" | "-" | "*" => {
            if lt == Ty::Int && rt == Ty::Int {
                let f = match op {
                    "+" => "wrapping_add",
                    "-" => "wrapping_sub",
                    _ => "wrapping_mul",
                };
                Ok((Ty::Int, format!("{lc}.{f}({rc})")))
            } else {
                bad("two ints")
            }
        }
        "/" | "%" => {
            if lt == Ty::Int && rt == Ty::Int {
                let f = if op == "/" {
                    "checked_div"
                } else {
                    "checked_rem"
                };
                Ok((Ty::Int, format!("{lc}.{f}({rc}).unwrap_or(0)")))
            } else {
                bad("two ints")
            }
        }
        _ => bad("known operands"),
    }
}

fn call(name: &str, args: &[Expr], o: usize, v: &Vocab) -> PResult<(Ty, String)> {
    let compiled: Vec<(Ty, String)> = args.iter().map(|a| compile(a, v)).collect::<PResult<_>>()?;
    let want = |n: usize| -> PResult<()> {
        if compiled.len() == n {
            Ok(())
        } else {
            Err((
                o,
                format!("`{name}` takes {n} argument(s), found {}", compiled.len()),
            ))
        }
    };
    let is_type = |i: usize| -> PResult<&String> {
        match &compiled[i] {
            (Ty::Enum(e), c) if e == "type" => Ok(c),
            (t, _) => Err((o, format!("`{name}` needs a data type, found {}", t.show()))),
        }
    };
    let is_int = |i: usize| -> PResult<&String> {
        match &compiled[i] {
            (Ty::Int, c) => Ok(c),
            (t, _) => Err((o, format!("`{name}` needs an int, found {}", t.show()))),
        }
    };
    match name {
        "size" => {
            want(1)?;
            Ok((Ty::Int, format!("({}.bytes() as i64)", is_type(0)?)))
        }
        "is_float" | "is_int" | "is_signed" | "is_vector" => {
            want(1)?;
            Ok((Ty::Bool, format!("{}.{name}()", is_type(0)?)))
        }
        "min" | "max" => {
            want(2)?;
            Ok((Ty::Int, format!("{}.{name}({})", is_int(0)?, is_int(1)?)))
        }
        "pow2" => {
            want(1)?;
            Ok((
                Ty::Bool,
                format!("{{ let __n = {}; __n > 0 && (__n & (__n - 1)) == 0 }}", is_int(0)?),
            ))
        }
        "log2" => {
            want(1)?;
            Ok((
                Ty::Int,
                format!(
                    "{{ let __n = {}; if __n > 0 {{ 63 - __n.leading_zeros() as i64 }} else {{ -1 }} }}",
                    is_int(0)?
                ),
            ))
        }
        _ => Err((
            o,
            format!("unknown function `{name}` (known: size, is_float, is_int, is_signed, is_vector, min, max, pow2, log2)"),
        )),
    }
}
