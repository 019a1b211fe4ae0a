//! The GitHub Classroom workflow of the student edition.
//!
//! It checks out the student's push and, with a token held in the classroom's secrets, the
//! teacher's private copy of the course (which holds the hidden tests and the grader); grades
//! every exercise; writes each Markdown table to the job summary; and hands each Classroom result
//! to GitHub's grading reporter.

use super::catalog::Exercise;

pub fn classroom(exercises: &[Exercise]) -> String {
    let mut y = String::from(
        "# Written by `cargo xtask release`. Grades a push with the teacher's hidden tests.\n\
         # Repository secrets (set by the teacher, e.g. at the organisation level):\n\
         #   GRADER_REPOSITORY  owner/name of the teacher's private copy of the course\n\
         #   GRADER_TOKEN       a read-only token for that repository\n\
         name: Grade\n\
         \"on\":\n  push:\n  workflow_dispatch:\n\n\
         permissions:\n  checks: write\n  actions: read\n  contents: read\n\n\
         jobs:\n  grade:\n    name: Hidden tests\n    runs-on: ubuntu-24.04\n    timeout-minutes: 60\n\
         \x20   if: github.actor != 'github-classroom[bot]'\n    steps:\n\
         \x20     - name: Check out the submission\n        uses: actions/checkout@v5\n        with:\n          path: submission\n\
         \x20     - name: Check out the grader and hidden tests\n        uses: actions/checkout@v5\n        with:\n\
         \x20         repository: ${{ secrets.GRADER_REPOSITORY }}\n          token: ${{ secrets.GRADER_TOKEN }}\n          path: staff\n\
         \x20     - name: Install lavapipe (software Vulkan)\n        run: |\n          sudo apt-get update\n\
         \x20         sudo apt-get install -y mesa-vulkan-drivers\n\
         \x20     - name: Install cargo-nextest\n        uses: taiki-e/install-action@v2\n        with:\n          tool: cargo-nextest\n\
         \x20     - name: Build the grader and fetch the pinned crates\n        working-directory: staff\n        run: |\n\
         \x20         rustup toolchain install\n          cargo fetch --locked\n          cargo build --locked -p xtask\n",
    );
    let mut runners = Vec::new();
    let mut env = String::new();
    for ex in exercises {
        let id = ex.slug();
        y.push_str(&format!(
            "      - name: Grade {ex_id}\n        id: {id}\n        working-directory: staff\n        run: |\n\
             \x20         sudo env \"PATH=$PATH\" \"HOME=$HOME\" target/debug/xtask grade --exercise {ex_id} \\\n\
             \x20           --submission ../submission/exercises/{ex_id} --out ../results/{id}\n\
             \x20         cat ../results/{id}/summary.md >> \"$GITHUB_STEP_SUMMARY\"\n\
             \x20         echo \"result=$(base64 -w0 < ../results/{id}/classroom.json)\" >> \"$GITHUB_OUTPUT\"\n",
            ex_id = ex.id
        ));
        runners.push(id.clone());
        env.push_str(&format!(
            "          {}_RESULTS: ${{{{ steps.{id}.outputs.result }}}}\n",
            id.to_uppercase()
        ));
    }
    y.push_str(&format!(
        "      - name: Report to GitHub Classroom\n        if: always()\n\
         \x20       uses: classroom-resources/autograding-grading-reporter@v1\n        env:\n{env}\
         \x20       with:\n          runners: {}\n",
        runners.join(",")
    ));
    y
}
