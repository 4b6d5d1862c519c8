//! Initial contents of a buffer or of the CURBE, in one of four forms (docs/dispatch.md):
//! a typed array (`dtype` + `values`), `hex` (bytes in memory order), a `file` (raw bytes,
//! relative to the description's folder) or a `fill` byte (with the buffer's size).

use super::error::DescError;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One initial-contents object. Exactly one form is given.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Init {
    /// Element type of `values`: int8, uint8, int16, uint16, int32, uint32, int64, uint64,
    /// float32, float64.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dtype: Option<String>,
    /// The elements, little-endian in memory order: JSON numbers, or strings `"0x..."` giving
    /// the element's bits (exact for floats).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<serde_json::Value>>,
    /// Bytes as hexadecimal digit pairs in memory order (white space between pairs allowed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hex: Option<String>,
    /// A file of raw bytes (relative paths: from the description's folder).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// Every byte of the buffer set to this value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fill: Option<u8>,
}

/// The largest `fill` (256 MiB): contents are held in memory.
pub const FILL_MAX: u64 = 1 << 28;

/// The element types of a typed array: (name, bytes, float).
const DTYPES: [(&str, usize, bool); 10] = [
    ("int8", 1, false),
    ("uint8", 1, false),
    ("int16", 2, false),
    ("uint16", 2, false),
    ("int32", 4, false),
    ("uint32", 4, false),
    ("int64", 8, false),
    ("uint64", 8, false),
    ("float32", 4, true),
    ("float64", 8, true),
];

/// The size in bytes and float-ness of element type `name` (`None`: not one of the types).
pub fn dtype_info(name: &str) -> Option<(usize, bool)> {
    DTYPES
        .iter()
        .find(|d| d.0 == name)
        .map(|&(_, size, float)| (size, float))
}

impl Init {
    /// A typed array.
    pub fn typed(dtype: &str, values: Vec<serde_json::Value>) -> Init {
        Init {
            dtype: Some(dtype.to_string()),
            values: Some(values),
            ..Init::default()
        }
    }

    /// A file.
    pub fn file(path: impl Into<String>) -> Init {
        Init {
            file: Some(path.into()),
            ..Init::default()
        }
    }

    /// A fill byte.
    pub fn fill(b: u8) -> Init {
        Init {
            fill: Some(b),
            ..Init::default()
        }
    }

    /// The bytes (`path`: this object's JSON path; `base`: the folder relative files are
    /// read from; `size`: the buffer size, for `fill`).
    pub fn bytes(&self, path: &str, base: &Path, size: u64) -> Result<Vec<u8>, DescError> {
        let forms = [
            self.values.is_some() || self.dtype.is_some(),
            self.hex.is_some(),
            self.file.is_some(),
            self.fill.is_some(),
        ];
        let n = forms.iter().filter(|&&f| f).count();
        if n != 1 {
            return Err(DescError::at(
                path,
                format!("{n} forms of initial contents given"),
                "give exactly one of `dtype`+`values`, `hex`, `file` or `fill`",
            ));
        }
        if let Some(b) = self.fill {
            if size > FILL_MAX {
                return Err(DescError::at(
                    format!("{path}.fill"),
                    format!("a fill of {size} bytes (the model holds contents in memory)"),
                    format!("fill at most {FILL_MAX} bytes; leave the rest undefined"),
                ));
            }
            return Ok(vec![b; size as usize]);
        }
        if let Some(h) = &self.hex {
            return hex_bytes(h, &format!("{path}.hex"));
        }
        if let Some(f) = &self.file {
            let p = base.join(f);
            return std::fs::read(&p).map_err(|e| {
                DescError::at(
                    format!("{path}.file"),
                    format!("cannot read `{}`: {e}", p.display()),
                    "give a readable file (relative paths start at the description's folder)",
                )
            });
        }
        self.typed_bytes(path)
    }

    fn typed_bytes(&self, path: &str) -> Result<Vec<u8>, DescError> {
        let names: Vec<&str> = DTYPES.iter().map(|d| d.0).collect();
        let Some(dt) = &self.dtype else {
            return Err(DescError::at(
                path,
                "`values` without `dtype`",
                format!("add `dtype`: one of {}", names.join(", ")),
            ));
        };
        let Some(&(_, size, float)) = DTYPES.iter().find(|d| d.0 == dt) else {
            return Err(DescError::at(
                format!("{path}.dtype"),
                format!("unknown element type `{dt}`"),
                format!("use one of {}", names.join(", ")),
            ));
        };
        let Some(values) = &self.values else {
            return Err(DescError::at(
                path,
                "`dtype` without `values`",
                "add `values`: an array of numbers or \"0x...\" bit strings",
            ));
        };
        let mut out = Vec::with_capacity(values.len() * size);
        for (i, v) in values.iter().enumerate() {
            let bits = element_bits(v, dt, size, float).map_err(|what| {
                DescError::at(
                    format!("{path}.values[{i}]"),
                    what,
                    format!("write a {dt} as a JSON number in range, or its bits as \"0x...\""),
                )
            })?;
            out.extend_from_slice(&bits.to_le_bytes()[..size]);
        }
        Ok(out)
    }
}

/// The bits of one element of `size` bytes.
fn element_bits(v: &serde_json::Value, dt: &str, size: usize, float: bool) -> Result<u64, String> {
    let bits = 8 * size as u32;
    let max = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    if let Some(s) = v.as_str() {
        let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) else {
            return Err(format!(
                "the string `{s}` is not \"0x\" followed by hex digits"
            ));
        };
        let b = u64::from_str_radix(h, 16).map_err(|_| format!("bad hex bits `{s}`"))?;
        if b > max {
            return Err(format!("bits `{s}` do not fit in {bits} bits"));
        }
        return Ok(b);
    }
    let Some(n) = v.as_number() else {
        return Err(format!("{v} is not a number"));
    };
    if float {
        let Some(f) = n.as_f64() else {
            return Err(format!("{n} is not a number"));
        };
        return Ok(if size == 4 {
            u64::from((f as f32).to_bits())
        } else {
            f.to_bits()
        });
    }
    let signed = dt.starts_with("int");
    if let Some(u) = n.as_u64() {
        let lim = if signed { max >> 1 } else { max };
        if u > lim {
            return Err(format!("{u} is outside {dt}"));
        }
        return Ok(u);
    }
    if let Some(i) = n.as_i64() {
        let lo = if bits == 64 {
            i64::MIN
        } else {
            -(1i64 << (bits - 1))
        };
        if !signed || i < lo {
            return Err(format!("{i} is outside {dt}"));
        }
        return Ok(i as u64 & max);
    }
    Err(format!("{n} is not an integer"))
}

/// Hex digit pairs (white space allowed between pairs) to bytes.
pub fn hex_bytes(text: &str, path: &str) -> Result<Vec<u8>, DescError> {
    let mut out = Vec::with_capacity(text.len() / 2);
    let mut high: Option<(usize, u8)> = None;
    for (at, c) in text.char_indices() {
        if c.is_whitespace() {
            if let Some((start, _)) = high {
                return Err(DescError::at(
                    path,
                    format!("a lone hex digit at character {start}"),
                    "write every byte as two hex digits",
                ));
            }
            continue;
        }
        let Some(d) = c.to_digit(16) else {
            return Err(DescError::at(
                path,
                format!("`{c}` at character {at} is not a hex digit"),
                "write bytes as hex digit pairs (0-9, a-f), optionally separated by spaces",
            ));
        };
        match high.take() {
            None => high = Some((at, d as u8)),
            Some((_, h)) => out.push(h << 4 | d as u8),
        }
    }
    if let Some((start, _)) = high {
        return Err(DescError::at(
            path,
            format!("a lone hex digit at character {start}"),
            "write every byte as two hex digits",
        ));
    }
    Ok(out)
}
