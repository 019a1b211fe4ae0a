//! The grader's sandbox: every cargo, rustc, clippy and test process of a grading runs inside
//! bubblewrap (`bwrap`), unprivileged, in namespaces of its own.
//!
//! What the sandbox sees, and nothing else:
//!
//! | inside            | what                                              | mode       |
//! | ----------------- | ------------------------------------------------- | ---------- |
//! | `/usr` (+ links)  | the system's programs and libraries (linker)      | read-only  |
//! | `/grade/toolchain`| the Rust toolchain (cargo, rustc, clippy-driver)  | read-only  |
//! | `/grade/cargo/registry` | the downloaded crates                       | read-only  |
//! | `/grade/bin`      | `cargo-nextest`                                   | read-only  |
//! | `/grade/course`   | the public course crates the exercise builds on   | read-only  |
//! | `/grade/ws`       | this grading's staff workspace + the taken sources| read-write |
//! | `/grade/target`   | this grading's own target folder (fresh copy)     | read-write |
//! | `/tmp`, `/grade/home`, `/dev/shm` | empty, private, gone afterwards   | read-write |
//!
//! No network, no `/etc` but the linker's `alternatives`, no repository, no other grading's files,
//! no home folder. Processes run as uid 65534 with no capabilities, in their own PID namespace: when
//! the command ends or times out, everything it started dies with it. Root is not needed where the
//! kernel allows unprivileged user namespaces (`bwrap --unshare-user`), so a teacher can grade on a
//! laptop; the grader says so when it is not allowed.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::error::{GradeError, io_err};

/// Paths inside the sandbox.
pub const WS: &str = "/grade/ws";
pub const TARGET: &str = "/grade/target";
pub const COURSE: &str = "/grade/course";
const HOME: &str = "/grade/home";
const TOOLCHAIN: &str = "/grade/toolchain";
const CARGO_HOME: &str = "/grade/cargo";
const BIN: &str = "/grade/bin";
/// Staff files of one grading (the test runner), mounted read-only.
const STAFF: &str = "/grade/staff";
const RUNNER: &str = "/grade/staff/runner.sh";

/// Cargo's target runner for the hidden tests: it starts each test binary in a sandbox inside the
/// sandbox, where the student's code runs apart from cargo and nextest (the processes that
/// write the report the verdict is read from):
///
/// - everything read-only: the workspace, the target folder, this script, the test binaries
///   (owned by the same uid, but a read-only mount cannot be written or `chmod`ed);
/// - no `/proc` (no other process's memory or command line, not even nextest's), no writable
///   folder at all (`/tmp` and `/dev/shm` too are read-only), no network;
/// - its own PID namespace (nothing outside it can be signalled or traced) and no further user
///   namespaces (no way to regain mount rights);
/// - limits: processes, address space, file size 0, no core dumps, open files, output size.
fn runner_sh(address_space: &str, gpu: bool) -> String {
    let dri = if gpu {
        "--dev-bind-try /dev/dri /dev/dri "
    } else {
        ""
    };
    format!(
        "#!/bin/bash\n\
         # Written by the grader: Cargo's target runner for the hidden tests (inside the sandbox).\n\
         set -o pipefail\n\
         bwrap --unshare-all --unshare-user --disable-userns --die-with-parent --new-session \\\n  \
         --ro-bind / / --tmpfs /proc --remount-ro /proc --dev /dev {dri}--remount-ro /dev \\\n  \
         --setenv MESA_SHADER_CACHE_DISABLE true -- \\\n  \
         prlimit --nproc=512 --as={address_space} --fsize=0 --core=0 --nofile=1024 -- \"$@\" 2>&1 \\\n  \
         | head -c 1048576\n"
    )
}

/// The host folders a grading's sandbox is made of.
#[derive(Clone, Debug)]
pub struct Sandbox {
    /// Host folder mounted at `/grade/ws`.
    pub ws: PathBuf,
    /// Host folder mounted at `/grade/target`.
    pub target: PathBuf,
    /// Host folder mounted at `/grade/course` (the course manifest and crates), if any.
    pub course: Option<PathBuf>,
    /// Host folder holding the test runner, mounted read-only at `/grade/staff`.
    pub staff: Option<PathBuf>,
    pub gpu: bool,
    /// More `KEY=value` pairs for every command.
    pub extra_env: Vec<(String, String)>,
}

/// Host paths of the tools, found once.
#[derive(Clone, Debug)]
struct Tools {
    toolchain: PathBuf,
    registry: PathBuf,
    nextest: PathBuf,
    host: String,
}

impl Sandbox {
    /// A sandbox with no test runner (building only).
    pub fn new(
        ws: &Path,
        target: &Path,
        course: Option<&Path>,
        gpu: bool,
    ) -> Result<Self, GradeError> {
        Ok(Self {
            ws: ws.to_path_buf(),
            target: target.to_path_buf(),
            course: course.map(Path::to_path_buf),
            staff: None,
            gpu,
            extra_env: Vec::new(),
        })
    }

    /// Writes the test runner into the host folder `staff` (outside `ws` and `target`), which
    /// every later command sees read-only.
    pub fn with_runner(mut self, staff: &Path) -> Result<Self, GradeError> {
        // lavapipe and LLVM reserve much more address space than they touch.
        let address_space = if self.gpu {
            "34359738368"
        } else {
            "4294967296"
        };
        let runner = staff.join("runner.sh");
        student::catalog::write(&runner, &runner_sh(address_space, self.gpu))?;
        set_mode(&runner, 0o555)?;
        set_mode(staff, 0o555)?;
        self.staff = Some(staff.to_path_buf());
        Ok(self)
    }

    /// Runs `cargo ARGS` in `/grade/ws`, sandboxed, killed after `limit_s` seconds.
    pub fn cargo(
        &self,
        args: &[&str],
        limit_s: u32,
        with_runner: bool,
    ) -> Result<Output, GradeError> {
        let tools = tools()?;
        let mut cmd = Command::new("timeout");
        cmd.args(["-k", "5", &limit_s.to_string(), "bwrap"]);
        cmd.args(NOBODY_IN_NEW_NAMESPACES);
        cmd.args([
            "--cap-drop",
            "ALL",
            "--die-with-parent",
            "--new-session",
            "--hostname",
            "grader",
            "--clearenv",
        ]);
        self.mount(&mut cmd, &tools);
        for (key, value) in &self.environment(&tools, with_runner)? {
            cmd.args(["--setenv", key, value]);
        }
        cmd.args(["--chdir", WS, "cargo"]);
        cmd.args(args);
        cmd.output().map_err(|source| GradeError::Sandbox {
            what: "starting `timeout … bwrap` (install bubblewrap: `apt-get install bubblewrap`)"
                .into(),
            source,
        })
    }

    /// What the sandbox sees: the system read-only, fresh /tmp and home, the toolchain, registry
    /// and nextest read-only, the course and staff folders read-only, the workspace and target
    /// writable, and the GPU's device files for GPU exercises.
    fn mount(&self, cmd: &mut Command, tools: &Tools) {
        cmd.args(["--ro-bind", "/usr", "/usr"]);
        for link in ["bin", "lib", "lib64", "sbin"] {
            let host = Path::new("/").join(link);
            match std::fs::read_link(&host) {
                Ok(to) => cmd.arg("--symlink").arg(to).arg(&host),
                Err(_) if host.is_dir() => cmd.arg("--ro-bind").arg(&host).arg(&host),
                Err(_) => &mut *cmd,
            };
        }
        // The linker is `cc`, a link through /etc/alternatives; nothing else of /etc is shown.
        for etc in ["/etc/alternatives", "/etc/ld.so.cache"] {
            if Path::new(etc).exists() {
                cmd.args(["--ro-bind", etc, etc]);
            }
        }
        cmd.args(["--proc", "/proc", "--dev", "/dev"]);
        cmd.args(["--tmpfs", "/tmp", "--tmpfs", "/var/tmp", "--tmpfs", HOME]);
        cmd.arg("--ro-bind").arg(&tools.toolchain).arg(TOOLCHAIN);
        cmd.args(["--dir", CARGO_HOME]);
        cmd.arg("--ro-bind")
            .arg(&tools.registry)
            .arg(format!("{CARGO_HOME}/registry"));
        cmd.arg("--ro-bind")
            .arg(&tools.nextest)
            .arg(format!("{BIN}/cargo-nextest"));
        if let Some(course) = &self.course {
            cmd.arg("--ro-bind").arg(course).arg(COURSE);
        }
        if let Some(staff) = &self.staff {
            cmd.arg("--ro-bind").arg(staff).arg(STAFF);
        }
        cmd.arg("--bind").arg(&self.ws).arg(WS);
        cmd.arg("--bind").arg(&self.target).arg(TARGET);
        if self.gpu && Path::new("/dev/dri").exists() {
            cmd.args(["--dev-bind", "/dev/dri", "/dev/dri"]);
        }
    }

    /// The whole environment inside the sandbox (it starts empty): cargo offline at the
    /// sandbox's paths, the test runner when tests run, and the caller's extra variables.
    fn environment(
        &self,
        tools: &Tools,
        with_runner: bool,
    ) -> Result<Vec<(String, String)>, GradeError> {
        let mut env: Vec<(String, String)> = vec![
            (
                "PATH".into(),
                format!("{TOOLCHAIN}/bin:{BIN}:/usr/local/bin:/usr/bin:/bin"),
            ),
            ("HOME".into(), HOME.into()),
            ("TMPDIR".into(), "/tmp".into()),
            ("CARGO_HOME".into(), CARGO_HOME.into()),
            ("CARGO_TARGET_DIR".into(), TARGET.into()),
            ("CARGO_INCREMENTAL".into(), "0".into()),
            ("CARGO_TERM_COLOR".into(), "never".into()),
            ("CARGO_NET_OFFLINE".into(), "true".into()),
            ("NEXTEST_HIDE_PROGRESS_BAR".into(), "1".into()),
            ("LANG".into(), "C.UTF-8".into()),
        ];
        if with_runner {
            if self.staff.is_none() {
                return Err(GradeError::Setup(
                    "grader error: tests run without a runner (Sandbox::with_runner)".into(),
                ));
            }
            let var = format!(
                "CARGO_TARGET_{}_RUNNER",
                tools.host.to_uppercase().replace(['-', '.'], "_")
            );
            env.push((var, RUNNER.into()));
        }
        env.extend(self.extra_env.iter().cloned());
        Ok(env)
    }
}

/// The toolchain, registry and nextest of the grader's own environment.
fn tools() -> Result<Tools, GradeError> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let text = |args: &[&str]| -> Result<String, GradeError> {
        let out =
            Command::new(&rustc)
                .args(args)
                .output()
                .map_err(|source| GradeError::Sandbox {
                    what: "running rustc to find the toolchain".into(),
                    source,
                })?;
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    let toolchain = PathBuf::from(text(&["--print", "sysroot"])?);
    let host = text(&["-vV"])?
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(String::from))
        .ok_or_else(|| GradeError::Setup("rustc -vV printed no host triple".into()))?;
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
        .ok_or_else(|| GradeError::Setup("neither CARGO_HOME nor HOME is set".into()))?;
    let nextest = which::which("cargo-nextest").ok().ok_or_else(|| {
        GradeError::Setup(
            "cargo-nextest is not on PATH: install it with `cargo install cargo-nextest --locked`"
                .into(),
        )
    })?;
    Ok(Tools {
        toolchain,
        registry: cargo_home.join("registry"),
        nextest,
        host,
    })
}

/// bubblewrap's first flags: every namespace new, the user among them, and inside it the user
/// and group `nobody` (65534). The preflight asks for exactly what a grading needs.
const NOBODY_IN_NEW_NAMESPACES: [&str; 6] = [
    "--unshare-all",
    "--unshare-user",
    "--uid",
    "65534",
    "--gid",
    "65534",
];

/// Whether bubblewrap can make its namespaces here; if not, what to do. Grading as root is
/// refused: the sandbox's uid would be root's outside it, where `RLIMIT_NPROC` does not apply
/// and root's files are within reach.
pub fn preflight() -> Result<(), GradeError> {
    use std::os::unix::fs::MetadataExt;
    // /proc/self belongs to the process's effective uid.
    if std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0) {
        return Err(GradeError::AsRoot);
    }
    let out = Command::new("bwrap")
        .args(NOBODY_IN_NEW_NAMESPACES)
        .args(["--ro-bind", "/usr", "/usr", "--symlink", "usr/bin", "/bin"])
        .args([
            "--symlink",
            "usr/lib",
            "/lib",
            "--symlink",
            "usr/lib64",
            "/lib64",
        ])
        .args(["/usr/bin/true"])
        .output()
        .map_err(|source| GradeError::Sandbox {
            what: "starting bwrap (install bubblewrap: `sudo apt-get install bubblewrap`)".into(),
            source,
        })?;
    if out.status.success() {
        Ok(())
    } else {
        Err(GradeError::NoUserNamespaces(
            String::from_utf8_lossy(&out.stderr).trim().to_string(),
        ))
    }
}

pub fn set_mode(path: &Path, mode: u32) -> Result<(), GradeError> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
        .map_err(|e| io_err(path, e))
}

/// A fresh random token: 32 hex digits from the kernel's generator.
pub fn token() -> Result<String, GradeError> {
    use std::io::Read;
    let mut bytes = [0u8; 16];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .map_err(|e| io_err(Path::new("/dev/urandom"), e))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}
