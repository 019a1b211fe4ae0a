//! The command line: flags after `figures` reach every figure program unchanged; an unknown
//! command is a usage error.

use clap::Parser;
use xtask::figures::FiguresArgs;

#[derive(Parser)]
struct Figures {
    #[command(flatten)]
    args: FiguresArgs,
}

#[test]
fn figure_flags_pass_through_and_check_is_xtasks_own() {
    let parsed = Figures::try_parse_from([
        "figures",
        "--quick",
        "--only",
        "sizes,depths",
        "--machine",
        "h100",
        "--allow-dirty",
    ])
    .unwrap();
    assert!(!parsed.args.check);
    assert_eq!(
        parsed.args.program_flags,
        [
            "--quick",
            "--only",
            "sizes,depths",
            "--machine",
            "h100",
            "--allow-dirty"
        ]
    );
    let check = Figures::try_parse_from(["figures", "--check"]).unwrap();
    assert!(check.args.check && check.args.program_flags.is_empty());
}

#[test]
fn an_unknown_command_is_a_usage_error_naming_cargo_xtask() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_xtask"))
        .arg("no-such-command")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("unrecognized subcommand 'no-such-command'"),
        "{stderr}"
    );
    assert!(stderr.contains("cargo xtask"), "{stderr}");
}
