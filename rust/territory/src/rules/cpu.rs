//! Runtime CPU-feature detection for the few hot instructions: `popcnt` and `pdep`.
//!
//! Counting the bits of a 64-bit word and finding its n-th set bit are at the heart of
//! move generation (how many moves, which is the n-th). `popcnt` and `pdep` (BMI2) do
//! them in an instruction or two, but they are not in the x86-64 baseline, and a global
//! `-C target-cpu` setting would be lost in a source distribution (and would make the
//! build crash on a CPU without them). So the CPU is examined once, when the library is
//! loaded, and [`popcount`], [`popcnt`] and [`pdep`] check the result (one load and a
//! well-predicted branch, which the compiler merges over a stretch of code) before they
//! run the instruction as inline assembly, which, unlike a `#[target_feature]` function,
//! inlines anywhere. Without the feature, portable code computes the same result.
//!
//! Setting the environment variable `TERRITORY_PORTABLE=1` before the process starts
//! makes every count and selection take the portable path.
//!
//! On other architectures (or when the compiler is already told the CPU has `popcnt`,
//! `-C target-cpu=native`) `count_ones` is one instruction or the best there is, and this
//! module adds nothing.

// The only module of the crate with `unsafe` (the workspace lint is "deny"): executing
// an instruction the CPU may lack, which the detection result guards.
#![allow(unsafe_code)]
// Only x86-64 has more than one level.
#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]

/// Not detected (yet, or ever on a platform where [`DETECT`] does not run).
const UNKNOWN: u8 = 0;
/// No `popcnt`, or the portable path requested: `count_ones`.
const PORTABLE: u8 = 1;
/// `popcnt` present.
const POPCNT: u8 = 2;
/// `popcnt` and a fast `pdep` (BMI2) present.
const PDEP: u8 = 3;

/// What [`detect`] found. A plain static, not an atomic: it is written once, by the
/// loader, before any other code of the library runs, so the compiler may treat it as
/// the constant it is and check it once for a stretch of code rather than at every count.
static mut LEVEL: u8 = UNKNOWN;

/// Whether to run `popcnt` by inline assembly: only where the compiler does not already
/// emit it for `count_ones`.
const DISPATCH: bool = cfg!(all(target_arch = "x86_64", not(target_feature = "popcnt")));

/// Runs [`detect`] when the library is loaded (program start for a binary, `dlopen` for
/// the Python extension), like a C constructor.
#[cfg(target_arch = "x86_64")]
#[used]
#[cfg_attr(
    any(
        target_os = "linux",
        target_os = "android",
        target_os = "freebsd",
        target_os = "netbsd",
        target_os = "openbsd",
        target_os = "dragonfly",
        target_os = "illumos",
        target_os = "solaris"
    ),
    link_section = ".init_array"
)]
#[cfg_attr(target_vendor = "apple", link_section = "__DATA,__mod_init_func")]
#[cfg_attr(windows, link_section = ".CRT$XCU")]
static DETECT: extern "C" fn() = detect;

/// Sets [`LEVEL`] from this CPU's features, unless `TERRITORY_PORTABLE` is set (and not
/// empty or `0`).
#[cfg(target_arch = "x86_64")]
extern "C" fn detect() {
    let portable =
        std::env::var_os("TERRITORY_PORTABLE").is_some_and(|v| !v.is_empty() && v != "0");
    let level = if portable || !std::is_x86_feature_detected!("popcnt") {
        PORTABLE
    } else if std::is_x86_feature_detected!("bmi2") && !slow_pdep() {
        PDEP
    } else {
        POPCNT
    };
    // SAFETY: the loader runs this once, before any other code of the library, hence
    // before any read of LEVEL and with no other thread able to read it.
    unsafe { LEVEL = level };
}

/// A proof that this CPU has `popcnt` (only [`popcnt`] makes one).
#[derive(Clone, Copy, Debug)]
pub struct Popcnt(());

impl Popcnt {
    /// The number of set bits of `x`, in one instruction.
    #[inline(always)]
    pub fn count(self, x: u64) -> u32 {
        #[cfg(target_arch = "x86_64")]
        if DISPATCH {
            let ones: u64;
            // SAFETY: a `Popcnt` exists only if the CPU was detected to support `popcnt`
            // (see `popcnt()`), and the instruction only reads and writes registers.
            unsafe {
                std::arch::asm!("popcnt {0}, {1}", lateout(reg) ones, in(reg) x,
                    options(pure, nomem, nostack));
            }
            // SAFETY: a count of 64 bits is at most 64. Telling the compiler (which knows
            // it of `count_ones` but not of assembly) spares zero-extensions and masks.
            unsafe { std::hint::assert_unchecked(ones <= 64) };
            return ones as u32;
        }
        x.count_ones()
    }
}

/// A [`Popcnt`] if this CPU has `popcnt` (and the portable path was not requested).
#[inline(always)]
pub fn popcnt() -> Option<Popcnt> {
    // SAFETY: LEVEL is written only by `detect`, before any code can get here.
    let level = unsafe { LEVEL };
    (!DISPATCH || level >= POPCNT).then_some(Popcnt(()))
}

/// A proof that this CPU has a fast `pdep` (only [`pdep`] makes one).
#[derive(Clone, Copy, Debug)]
pub struct Pdep(());

impl Pdep {
    /// The low bits of `source` deposited at the set bits of `mask`, in one instruction.
    #[inline(always)]
    pub fn deposit(self, source: u64, mask: u64) -> u64 {
        #[cfg(target_arch = "x86_64")]
        {
            let out: u64;
            // SAFETY: a `Pdep` exists only if the CPU was detected to support BMI2 (see
            // `pdep()`), and the instruction only reads and writes registers.
            unsafe {
                std::arch::asm!("pdep {0}, {1}, {2}", lateout(reg) out, in(reg) source, in(reg) mask,
                    options(pure, nomem, nostack, preserves_flags));
            }
            out
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (source, mask);
            unreachable!("pdep() makes no Pdep on this architecture")
        }
    }
}

/// A [`Pdep`] if this CPU has BMI2 and runs `pdep` fast (and the portable path was not
/// requested).
#[inline(always)]
pub fn pdep() -> Option<Pdep> {
    // SAFETY: LEVEL is written only by `detect`, before any code can get here.
    let level = unsafe { LEVEL };
    (cfg!(target_arch = "x86_64") && level == PDEP).then_some(Pdep(()))
}

/// Whether `pdep` is microcoded (tens to hundreds of cycles): AMD families before 0x19
/// (Excavator, Zen 1, Zen+, Zen 2) and Hygon's Zen-based Dhyana.
#[cfg(target_arch = "x86_64")]
fn slow_pdep() -> bool {
    use std::arch::x86_64::__cpuid;
    // SAFETY: every x86-64 CPU has `cpuid` (the intrinsic is safe from Rust 1.87 on).
    #[allow(unused_unsafe)]
    let (id, eax) = unsafe { (__cpuid(0), __cpuid(1).eax) };
    let vendor: Vec<u8> = [id.ebx, id.edx, id.ecx]
        .iter()
        .flat_map(|r| r.to_le_bytes())
        .collect();
    if vendor != b"AuthenticAMD" && vendor != b"HygonGenuine" {
        return false;
    }
    let base = (eax >> 8) & 0xf;
    let family = if base == 0xf {
        base + ((eax >> 20) & 0xff)
    } else {
        base
    };
    family < 0x19
}

/// The number of set bits of `x`: `popcnt` where the CPU has it, else `count_ones`.
#[inline(always)]
pub fn popcount(x: u64) -> u32 {
    match popcnt() {
        Some(p) => p.count(x),
        None => x.count_ones(),
    }
}

/// Whether counts run the `popcnt` instruction.
pub fn accelerated() -> bool {
    popcnt().is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn popcnt_counts_like_count_ones() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let values = [0, 1, u64::MAX, 1 << 63, u64::MAX - 1];
        if let Some(p) = popcnt() {
            for v in values {
                assert_eq!(p.count(v), v.count_ones());
            }
            for _ in 0..10_000 {
                assert_eq!(p.count(x), x.count_ones());
                x = crate::rules::zobrist::mix(x);
            }
        }
        for v in values {
            assert_eq!(popcount(v), v.count_ones());
        }
    }

    #[test]
    fn pdep_deposits_like_a_loop() {
        let Some(pdep) = pdep() else { return };
        let deposit = |source: u64, mask: u64| {
            let (mut out, mut k) = (0, 0);
            for i in 0..64 {
                if mask >> i & 1 != 0 {
                    out |= (source >> k & 1) << i;
                    k += 1;
                }
            }
            out
        };
        let (mut x, mut y): (u64, u64) = (0x9E37_79B9_7F4A_7C15, 1);
        for _ in 0..10_000 {
            assert_eq!(pdep.deposit(x, y), deposit(x, y), "{x:#x} {y:#x}");
            (x, y) = (crate::rules::zobrist::mix(y), x);
        }
        assert_eq!(pdep.deposit(0b101, 0b1111_0000), 0b0101_0000);
        assert_eq!(pdep.deposit(u64::MAX, 0), 0);
    }
}
