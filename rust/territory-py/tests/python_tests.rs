//! The package's pytest tests run against this build of the bindings, so that
//! cargo-mutants can test the bindings' mutants (`.ci/mutants`, docs/testing.md): the
//! bindings have no Rust tests of their own, pytest is what checks them.
//!
//! With `TERRITORY_BINDING_TESTS` set to test files (separated by spaces, relative to the
//! workspace), this builds the extension in the profile this test was built in, puts it
//! beside a copy of the Python package, and runs pytest on those files (their quick
//! tests, the first failure ending the run). Without the variable it does nothing: the
//! installed package is tested by pytest itself.
#![cfg(unix)]

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;

#[test]
fn the_python_tests_pass_against_this_build() {
    let Ok(tests) = std::env::var("TERRITORY_BINDING_TESTS") else {
        return;
    };
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    // This test runs from <target>/<profile dir>/deps/.
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().and_then(Path::parent).unwrap();
    let target = profile_dir.parent().unwrap();
    let profile = match profile_dir.file_name().unwrap().to_str().unwrap() {
        "debug" => "dev",
        other => other,
    };
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let built = Command::new(cargo)
        .args(["build", "--package", "territory-py", "--lib", "--profile", profile])
        .env("CARGO_TARGET_DIR", target)
        .current_dir(&workspace)
        .status()
        .unwrap();
    assert!(built.success(), "the extension did not build");

    // python/ with its files linked, and this build as the extension module.
    let overlay = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("bindings-{}", std::process::id()));
    let package = overlay.join("territory");
    let _ = std::fs::remove_dir_all(&overlay);
    std::fs::create_dir_all(&package).unwrap();
    let link_all = |from: &Path, to: &Path, skip: &dyn Fn(&str) -> bool| {
        for entry in std::fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name();
            if !skip(&name.to_string_lossy()) {
                std::os::unix::fs::symlink(entry.path().canonicalize().unwrap(), to.join(&name)).unwrap();
            }
        }
    };
    link_all(&workspace.join("python"), &overlay, &|name| name == "territory");
    link_all(&workspace.join("python/territory"), &package, &|name| name.starts_with("_core.") && name.ends_with(".so"));
    std::fs::copy(profile_dir.join("lib_core.so"), package.join("_core.abi3.so")).unwrap();

    let python = std::env::var("TERRITORY_PYTHON").unwrap_or_else(|_| "python3".into());
    let imported = Command::new(&python)
        .args(["-c", "import sys, territory; print(territory.__file__)"])
        .env("PYTHONPATH", &overlay)
        .output()
        .unwrap();
    let expected = package.join("__init__.py");
    assert_eq!(String::from_utf8_lossy(&imported.stdout).trim(), expected.to_string_lossy(), "the copy is imported");
    // In a process group of its own: the interrupt tests' Ctrl-C must not reach cargo-mutants.
    let passed = Command::new(python)
        .process_group(0)
        .args(["-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-m", "not slow and not browser"])
        .args(tests.split_whitespace())
        .env("PYTHONPATH", &overlay)
        .current_dir(&workspace)
        .status()
        .unwrap();
    let _ = std::fs::remove_dir_all(&overlay);
    assert!(passed.success(), "pytest failed on {tests}");
}
