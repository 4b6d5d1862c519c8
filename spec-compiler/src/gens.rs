//! Platform sets: the `gens` field of every row (grammar in spec/README.md).

use crate::schema::Platform;

/// The platforms known from platforms.toml, in file order.
#[derive(Debug, Clone)]
pub struct Platforms {
    pub names: Vec<String>,
    pub gen_x10: Vec<u32>,
    pub lowpower: Vec<bool>,
}

/// A set of platforms as a bitmask (bit i = platform i of platforms.toml).
pub type Mask = u32;

impl Platforms {
    pub fn from_rows(rows: &[&Platform]) -> Self {
        Platforms {
            names: rows.iter().map(|p| p.name.get_ref().clone()).collect(),
            gen_x10: rows.iter().map(|p| p.gen_x10).collect(),
            lowpower: rows.iter().map(|p| p.lowpower).collect(),
        }
    }

    pub fn all(&self) -> Mask {
        if self.names.len() >= 32 {
            u32::MAX
        } else {
            (1u32 << self.names.len()) - 1
        }
    }

    fn gen_mask(&self, gen_x10: u32, or_later: bool) -> Mask {
        let mut m = 0;
        for (i, g) in self.gen_x10.iter().enumerate() {
            if *g == gen_x10 || (or_later && *g >= gen_x10) {
                m |= 1 << i;
            }
        }
        m
    }

    /// Parse one term without a leading '-'.
    fn term(&self, t: &str) -> Result<Mask, String> {
        let (base, later) = match t.strip_suffix('+') {
            Some(b) => (b, true),
            None => (t, false),
        };
        match base {
            "all" if !later => return Ok(self.all()),
            "lp" if !later => {
                return Ok(self
                    .lowpower
                    .iter()
                    .enumerate()
                    .filter(|(_, l)| **l)
                    .fold(0, |m, (i, _)| m | (1 << i)))
            }
            "big" if !later => {
                return Ok(self
                    .lowpower
                    .iter()
                    .enumerate()
                    .filter(|(_, l)| !**l)
                    .fold(0, |m, (i, _)| m | (1 << i)))
            }
            _ => {}
        }
        if let Some(i) = self.names.iter().position(|n| n == base) {
            return Ok(if later {
                self.gen_mask(self.gen_x10[i], true)
            } else {
                1 << i
            });
        }
        let num = base.strip_prefix("gen").unwrap_or(base);
        let gen_x10 = match num {
            "7" => Some(70),
            "7.5" => Some(75),
            "8" => Some(80),
            "9" => Some(90),
            "10" => Some(100),
            "11" => Some(110),
            "12" => Some(120),
            _ => None,
        };
        match gen_x10 {
            Some(g) => {
                let m = self.gen_mask(g, later);
                if m == 0 {
                    Err(format!("generation `{t}` has no platform in platforms.toml"))
                } else {
                    Ok(m)
                }
            }
            None => Err(format!(
                "unknown generation `{t}` (expected one of {}, gen7, gen7.5, gen8, gen9, 7, 7.5, 8, 9, all, lp, big, with optional `+` or leading `-`)",
                self.names.join(", ")
            )),
        }
    }

    /// Parse a platform set expression.
    pub fn parse(&self, s: &str) -> Result<Mask, String> {
        let mut m: Mask = 0;
        let mut any = false;
        for raw in s.split([' ', ',']).filter(|t| !t.is_empty()) {
            any = true;
            if let Some(neg) = raw.strip_prefix('-') {
                m &= !self.term(neg)?;
            } else {
                m |= self.term(raw)?;
            }
        }
        if !any {
            return Err("empty platform set".to_string());
        }
        if m == 0 {
            return Err(format!("platform set `{s}` selects no platform"));
        }
        Ok(m)
    }

    pub fn names_of(&self, m: Mask) -> Vec<String> {
        self.names
            .iter()
            .enumerate()
            .filter(|(i, _)| m & (1 << i) != 0)
            .map(|(_, n)| n.clone())
            .collect()
    }
}
