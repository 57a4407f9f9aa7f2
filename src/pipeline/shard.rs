//! `--shard K/N`: shard K of N does a fixed, disjoint part of a run's work, so that N shards
//! together do exactly the unsharded run. Work comes in numbered units (match game pairs,
//! self-play blocks); unit `u` belongs to shard `u % N + 1`.

use std::fmt;
use std::str::FromStr;

/// Shard `index` (1-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// The whole run.
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    /// Whether unit `unit` (0-based) is this shard's.
    pub fn owns(self, unit: usize) -> bool {
        unit % self.count + 1 == self.index
    }

    pub fn is_whole(self) -> bool {
        self.count == 1
    }
}

impl Default for Shard {
    fn default() -> Self {
        Shard::ALL
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("shard '{text}' is not K/N with 1 <= K <= N");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = k.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_rejects() {
        assert_eq!("2/3".parse(), Ok(Shard { index: 2, count: 3 }));
        for bad in ["", "1", "0/2", "3/2", "a/2", "1/0", "-1/2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        assert_eq!(Shard { index: 2, count: 3 }.to_string(), "2/3");
    }

    #[test]
    fn shards_partition_the_units() {
        for count in 1..6 {
            for unit in 0..50 {
                let owners = (1..=count)
                    .filter(|&index| Shard { index, count }.owns(unit))
                    .count();
                assert_eq!(owners, 1, "unit {unit} of {count} shards");
            }
        }
    }
}
