//! Runtime CPU dispatch for the few hot instructions: `popcnt` and `pdep`.
//!
//! Counting the bits of a 64-bit word and finding its n-th set bit are at the heart of
//! move generation (how many moves, which is the n-th). `popcnt` and `pdep` (BMI2) do
//! them in an instruction or two, but they are not in the x86-64 baseline, and a global
//! `-C target-cpu` setting would be lost in a source distribution (and would make the
//! build crash on a CPU without them).
//!
//! So, as `memchr` and the `multiversion` crate do, the hot loops (a playout, a traced
//! game, a UCT search, a VecEnv step) run through [`dispatch`], which compiles the loop
//! it is given twice, once as is and once inside a `#[target_feature(enable =
//! "popcnt,bmi2")]` function, and runs the copy this CPU can run. Inside the fast copy
//! `count_ones` is the `popcnt` instruction, and [`select64`](crate::rules::bitset::select64)
//! runs `pdep` where [`pdep`] says it is fast. The CPU is examined once, on first use,
//! and the answer cached in an atomic ([`level`]).
//!
//! Setting the environment variable `TERRITORY_PORTABLE=1` (read on first use) makes
//! every hot loop take the portable copy.
//!
//! When the compiler is already told the CPU has these instructions (`-C
//! target-cpu=native`, `-C target-feature=+popcnt,+bmi2`) or on another architecture,
//! there is one copy only, and [`DISPATCHES`] is false.

// The only module of the crate with `unsafe` (the workspace lint is "deny"): entering
// code compiled for features the CPU may lack, which the detection result guards.
#![allow(unsafe_code)]

use std::sync::atomic::{AtomicU8, Ordering};

/// Whether the hot loops exist in more than one copy, chosen at run time: on x86-64
/// when the compiler does not already know the CPU has `popcnt` (otherwise every count
/// is `popcnt` and there is one path).
pub const DISPATCHES: bool = cfg!(all(target_arch = "x86_64", not(target_feature = "popcnt")));

/// Which copy of the hot loops this CPU runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// No `popcnt` or no BMI2, or `TERRITORY_PORTABLE=1`: the baseline copy.
    Portable = 1,
    /// `popcnt` and BMI2, but `pdep` is slow (microcoded): the fast copy, selecting bits
    /// with `popcnt` alone.
    Popcnt = 2,
    /// `popcnt` and a fast `pdep`: the fast copy.
    Pdep = 3,
}

/// Not detected yet.
const UNKNOWN: u8 = 0;

/// What [`detect`] found, once it ran.
static LEVEL: AtomicU8 = AtomicU8::new(UNKNOWN);

/// The level of this process: detected on the first call, then read from a cache. With
/// one copy only ([`DISPATCHES`] false) it is what the compiler was told.
#[inline]
pub fn level() -> Level {
    if !DISPATCHES {
        return if cfg!(all(target_arch = "x86_64", target_feature = "bmi2")) {
            Level::Pdep
        } else {
            Level::Popcnt
        };
    }
    match LEVEL.load(Ordering::Relaxed) {
        UNKNOWN => detect(),
        cached => level_read(cached),
    }
}

/// A level read back from [`LEVEL`], which holds it as `level as u8`.
#[inline(always)]
fn level_read(cached: u8) -> Level {
    match cached {
        l if l == Level::Pdep as u8 => Level::Pdep,
        l if l == Level::Popcnt as u8 => Level::Popcnt,
        _ => Level::Portable,
    }
}

/// Examines the CPU and the environment, and caches the answer. Threads racing here
/// compute and store the same value.
#[cold]
#[inline(never)]
fn detect() -> Level {
    let portable = portable_asked(std::env::var_os("TERRITORY_PORTABLE"));
    let level = if portable || !has_popcnt_and_bmi2() {
        Level::Portable
    } else if slow_pdep() {
        Level::Popcnt
    } else {
        Level::Pdep
    };
    LEVEL.store(level as u8, Ordering::Relaxed);
    level
}

/// Whether a value of `TERRITORY_PORTABLE` asks for the portable path: any but none,
/// empty or "0".
fn portable_asked(value: Option<std::ffi::OsString>) -> bool {
    value.is_some_and(|v| !v.is_empty() && v != "0")
}

#[cfg(target_arch = "x86_64")]
fn has_popcnt_and_bmi2() -> bool {
    std::is_x86_feature_detected!("popcnt") && std::is_x86_feature_detected!("bmi2")
}

#[cfg(not(target_arch = "x86_64"))]
fn has_popcnt_and_bmi2() -> bool {
    false
}

/// Runs `hot_loop`, compiled for this CPU's [`level`]. Give it an `#[inline(always)]`
/// closure that calls (and so inlines) the loop: only the code inlined into the fast
/// copy is compiled with the features.
#[inline(always)]
pub fn dispatch<R>(hot_loop: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    if DISPATCHES && level() != Level::Portable {
        // SAFETY: `level` found `popcnt` and BMI2 on this CPU.
        return unsafe { with_popcnt_bmi2(hot_loop) };
    }
    hot_loop()
}

/// Runs `arithmetic` (floating-point loops over arrays: the network's layers) compiled
/// with AVX2 when this CPU has it (eight lanes instead of four), checked once and cached
/// as [`level`] is. Only the vector width changes: no instruction fuses a multiply and an
/// add (Rust never contracts them by itself), so every result is bit for bit the same
/// on both paths. `TERRITORY_PORTABLE=1` takes the baseline path here too.
#[inline(always)]
pub fn dispatch_vector<R>(arithmetic: impl FnOnce() -> R) -> R {
    #[cfg(all(target_arch = "x86_64", not(target_feature = "avx2")))]
    if has_avx2() {
        // SAFETY: `has_avx2` found AVX2 on this CPU.
        return unsafe { with_avx2(arithmetic) };
    }
    arithmetic()
}

/// Whether the CPU has AVX2 (and the portable path was not asked for); cached.
#[cfg(all(target_arch = "x86_64", not(target_feature = "avx2")))]
#[inline(always)]
fn has_avx2() -> bool {
    static AVX2: AtomicU8 = AtomicU8::new(UNKNOWN);
    match AVX2.load(Ordering::Relaxed) {
        UNKNOWN => {
            let portable = portable_asked(std::env::var_os("TERRITORY_PORTABLE"));
            let yes = !portable && std::is_x86_feature_detected!("avx2");
            AVX2.store(avx2_cached(yes), Ordering::Relaxed);
            yes
        }
        v => avx2_read(v),
    }
}

/// How [`has_avx2`]'s cache holds an answer (0 is "not detected yet").
#[cfg(all(target_arch = "x86_64", not(target_feature = "avx2")))]
#[inline(always)]
fn avx2_cached(yes: bool) -> u8 {
    1 + yes as u8
}

/// The answer a [`has_avx2`] cache holds, once detected.
#[cfg(all(target_arch = "x86_64", not(target_feature = "avx2")))]
#[inline(always)]
fn avx2_read(cached: u8) -> bool {
    cached == 2
}

/// `arithmetic` compiled with AVX2.
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(all(target_arch = "x86_64", not(target_feature = "avx2")))]
#[target_feature(enable = "avx2")]
unsafe fn with_avx2<R>(arithmetic: impl FnOnce() -> R) -> R {
    arithmetic()
}

/// `closure` itself: Rust accepts `#[inline(always)]` on a closure passed as an argument,
/// not on one bound by `let`, so `let f = inlined(#[inline(always)] |..| ..)` binds one
/// that is inlined into each copy of a [`dispatch`]ed loop.
#[inline(always)]
pub fn inlined<F>(closure: F) -> F {
    closure
}

/// `hot_loop` compiled with `popcnt` and BMI2.
///
/// # Safety
/// The CPU must have `popcnt` and BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi2")]
unsafe fn with_popcnt_bmi2<R>(hot_loop: impl FnOnce() -> R) -> R {
    hot_loop()
}

/// A proof that this process runs the fast copy and that its `pdep` is fast (only
/// [`pdep`] makes one).
#[derive(Clone, Copy, Debug)]
pub struct Pdep(());

impl Pdep {
    /// The low bits of `source` deposited at the set bits of `mask`, in one instruction
    /// (inside the fast copy of a hot loop).
    #[inline(always)]
    pub fn deposit(self, source: u64, mask: u64) -> u64 {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: a `Pdep` exists only if the CPU has BMI2 (see `pdep()`).
            unsafe { std::arch::x86_64::_pdep_u64(source, mask) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (source, mask);
            unreachable!("pdep() makes no Pdep on this architecture")
        }
    }
}

/// A [`Pdep`] if this CPU has BMI2 and runs `pdep` fast, and the portable path was not
/// requested. A cached read (an atomic load before detection has run says no), with no
/// detection: the hot loops detect on entry, in [`dispatch`].
#[inline(always)]
pub fn pdep() -> Option<Pdep> {
    let fast = if DISPATCHES {
        LEVEL.load(Ordering::Relaxed) == Level::Pdep as u8
    } else {
        cfg!(all(target_arch = "x86_64", target_feature = "bmi2"))
    };
    fast.then_some(Pdep(()))
}

/// Whether `count_ones` can be taken for one instruction where the CPU allows it: false
/// only on the portable path of a dispatching build (as [`pdep`], a cached read).
#[inline(always)]
pub fn fast_counts() -> bool {
    !DISPATCHES || LEVEL.load(Ordering::Relaxed) >= Level::Popcnt as u8
}

/// Whether the hot loops run their fast copy (detecting the CPU if not done yet).
pub fn accelerated() -> bool {
    level() != Level::Portable
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
    microcoded_pdep(&vendor, eax)
}

/// [`slow_pdep`] for the CPU of vendor string `vendor` and version word `eax` (`cpuid`
/// leaf 1): AMD or Hygon, of a family (base plus extended) before 0x19.
#[cfg(target_arch = "x86_64")]
fn microcoded_pdep(vendor: &[u8], eax: u32) -> bool {
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

#[cfg(not(target_arch = "x86_64"))]
fn slow_pdep() -> bool {
    false
}

/// Whether [`dispatch_vector`] runs its AVX2 copy (detecting the CPU if not done yet):
/// always where AVX2 is known at compile time; else where the CPU has it, unless
/// `TERRITORY_PORTABLE` asks for the portable path.
pub fn vector_accelerated() -> bool {
    #[cfg(all(target_arch = "x86_64", not(target_feature = "avx2")))]
    return has_avx2();
    #[cfg(not(all(target_arch = "x86_64", not(target_feature = "avx2"))))]
    return cfg!(target_feature = "avx2");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_level_read_from_the_cache_is_the_level_detected() {
        let first = level();
        for _ in 0..3 {
            assert_eq!(level(), first);
        }
        assert_eq!(accelerated(), first != Level::Portable);
        assert_eq!(pdep().is_some(), first == Level::Pdep);
        assert_eq!(fast_counts(), !DISPATCHES || first != Level::Portable);
    }

    #[test]
    fn the_portable_path_is_asked_for_by_any_value_but_empty_or_0() {
        assert!(!portable_asked(None));
        for (value, asked) in [("", false), ("0", false), ("1", true), ("yes", true), ("00", true)] {
            assert_eq!(portable_asked(Some(value.into())), asked, "{value:?}");
        }
    }

    #[test]
    fn the_level_cache_reads_back_every_level() {
        for level in [Level::Portable, Level::Popcnt, Level::Pdep] {
            assert_eq!(level_read(level as u8), level);
        }
    }

    #[cfg(all(target_arch = "x86_64", not(target_feature = "avx2")))]
    #[test]
    fn the_avx2_cache_reads_back_what_it_holds() {
        for yes in [true, false] {
            assert_ne!(avx2_cached(yes), UNKNOWN);
            assert_eq!(avx2_read(avx2_cached(yes)), yes);
        }
    }

    #[cfg(all(target_arch = "x86_64", not(target_feature = "avx2")))]
    #[test]
    fn avx2_is_used_where_the_cpu_has_it_unless_the_portable_path_is_asked_for() {
        let portable = portable_asked(std::env::var_os("TERRITORY_PORTABLE"));
        let expected = !portable && std::is_x86_feature_detected!("avx2");
        assert_eq!(has_avx2(), expected);
        assert_eq!(has_avx2(), expected, "read back from the cache");
    }

    #[test]
    fn pdep_deposits_like_a_loop() {
        level();
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

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn pdep_is_microcoded_on_amd_before_zen_3() {
        // cpuid leaf 1's eax: stepping, model, base family (bits 8-11), extended family (20-27).
        let (excavator, zen2, zen3, zen4) = (0x0066_0F01, 0x0083_0F10, 0x00A2_0F10, 0x00A6_0F12);
        for vendor in [&b"AuthenticAMD"[..], b"HygonGenuine"] {
            assert!(microcoded_pdep(vendor, excavator) && microcoded_pdep(vendor, zen2));
            assert!(!microcoded_pdep(vendor, zen3) && !microcoded_pdep(vendor, zen4));
            assert!(microcoded_pdep(vendor, 0x0000_0E00)); // base family 0xE: no extended part
        }
        // An extended family is only added to base family 0xF.
        assert!(microcoded_pdep(b"AuthenticAMD", 0x00A0_0E00));
        assert!(
            !microcoded_pdep(b"GenuineIntel", zen2)
                && !microcoded_pdep(b"GenuineIntel", 0x0009_06EA)
        );
    }

    #[test]
    fn dispatch_runs_the_loop_once() {
        let mut runs = 0;
        assert_eq!(
            dispatch(|| {
                runs += 1;
                7
            }),
            7
        );
        assert_eq!(runs, 1);
        assert!(LEVEL.load(Ordering::Relaxed) != UNKNOWN || !DISPATCHES);
    }
}
