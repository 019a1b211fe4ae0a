//! The template's two windows with your "Size (%)" slider in the control panel.
//!
//! ```console
//! cargo run -p ex_m2_template_control --example template_control_app
//! cargo run -p ex_m2_template_control --example template_control_app -- --help
//! ```

fn main() -> std::process::ExitCode {
    ex_m2_template_control::main_with_args(std::env::args().skip(1).collect())
}
