//! The plate's 64 holes as a bitboard (bit `f + 8 r`): the four line directions and the
//! lines of red holes, which captures and the evaluation both read.

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;
/// The four line directions as positive shifts: east, north, north-east, north-west.
pub(crate) const DIRS: [(u32, u64); 4] = [(1, FILE_A), (8, 0), (9, FILE_A), (7, FILE_H)];

/// Moves every bit one step along the direction (dropping what leaves the plate).
#[inline]
pub(crate) fn fwd(x: u64, (shift, wrap): (u32, u64)) -> u64 {
    (x << shift) & !wrap
}

/// Bit i gets bit i + step: the inverse of [`fwd`].
#[inline]
pub(crate) fn back(x: u64, (shift, wrap): (u32, u64)) -> u64 {
    let unwrap = match wrap {
        FILE_A => FILE_H,
        FILE_H => FILE_A,
        _ => 0,
    };
    (x >> shift) & !unwrap
}

/// The holes of the runs of at least 4 red holes along `dir` among `red`: the holes that
/// start a run of 4 (they and the 3 after them are red) and the 3 after each.
#[inline]
pub(crate) fn run_holes(red: u64, dir: (u32, u64)) -> u64 {
    let b1 = back(red, dir);
    let b2 = back(b1, dir);
    let b3 = back(b2, dir);
    let starts4 = red & b1 & b2 & b3;
    let f1 = fwd(starts4, dir);
    let f2 = fwd(f1, dir);
    starts4 | f1 | f2 | fwd(f2, dir)
}

/// The lines (maximal runs of at least 4 red holes in a row, column or diagonal) among
/// `red`, each as a hole mask, appended to `out`; returns how many.
pub fn lines_of(red: u64, out: &mut [u64; 40]) -> usize {
    let mut n = 0;
    for_each_line(red, |line| {
        out[n] = line;
        n += 1;
    });
    n
}

/// Calls `f` with each line among `red`, as [`lines_of`] lists them, without a buffer to
/// clear: the evaluation asks for them at most nodes.
#[inline]
pub(crate) fn for_each_line(red: u64, mut f: impl FnMut(u64)) {
    for dir in DIRS {
        let mut cells = run_holes(red, dir);
        while cells != 0 {
            let mut line = cells & cells.wrapping_neg();
            loop {
                let grown = line | (fwd(line, dir) & cells);
                if grown == line {
                    break;
                }
                line = grown;
            }
            cells &= !line;
            f(line);
        }
    }
}
