//! Reading nextest's JUnit report with an XML parser (quick-xml through serde): just what
//! scoring needs — each test's suite, name, failure kind and captured standard output.

use serde::Deserialize;

/// One `<testcase>` of the report.
#[derive(Debug)]
pub struct Case {
    /// The nextest binary id, e.g. `ex_m1_buffer_reuse::hidden`.
    pub suite: String,
    pub name: String,
    /// `None` when the test passed; else the kind of failure (`test failure`, `test timeout`…).
    pub failure: Option<String>,
    pub stdout: String,
}

/// The report could not be parsed as JUnit XML.
#[derive(Debug, thiserror::Error)]
#[error("the JUnit report is not valid XML")]
pub struct ReportError(#[from] quick_xml::DeError);

#[derive(Deserialize)]
struct Suites {
    #[serde(rename = "testsuite", default)]
    suites: Vec<Suite>,
}

#[derive(Deserialize)]
struct Suite {
    #[serde(rename = "@name")]
    name: String,
    #[serde(rename = "testcase", default)]
    cases: Vec<TestCase>,
}

#[derive(Deserialize)]
struct TestCase {
    #[serde(rename = "@name")]
    name: String,
    #[serde(default)]
    failure: Vec<Problem>,
    #[serde(default)]
    error: Vec<Problem>,
    #[serde(rename = "rerunFailure", default)]
    rerun_failure: Vec<Problem>,
    #[serde(rename = "rerunError", default)]
    rerun_error: Vec<Problem>,
    #[serde(rename = "flakyFailure", default)]
    flaky_failure: Vec<Problem>,
    #[serde(rename = "flakyError", default)]
    flaky_error: Vec<Problem>,
    #[serde(rename = "system-out", default)]
    system_out: Option<String>,
}

#[derive(Deserialize)]
struct Problem {
    #[serde(rename = "@type", default)]
    kind: Option<String>,
}

/// Every test case of a nextest JUnit report.
pub fn parse(xml: &str) -> Result<Vec<Case>, ReportError> {
    let report: Suites = quick_xml::de::from_str(xml)?;
    Ok(report
        .suites
        .into_iter()
        .flat_map(|suite| {
            let name = suite.name;
            suite.cases.into_iter().map(move |case| {
                let failure = [
                    (&case.failure, "failure"),
                    (&case.error, "error"),
                    (&case.rerun_failure, "rerunFailure"),
                    (&case.rerun_error, "rerunError"),
                    (&case.flaky_failure, "flakyFailure"),
                    (&case.flaky_error, "flakyError"),
                ]
                .into_iter()
                .find_map(|(problems, tag)| {
                    problems
                        .first()
                        .map(|p| p.kind.clone().unwrap_or_else(|| tag.to_string()))
                });
                Case {
                    suite: name.clone(),
                    name: case.name,
                    failure,
                    stdout: case.system_out.unwrap_or_default(),
                }
            })
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn junit_reads_failures_and_escaped_output() {
        let xml = r#"<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="x" tests="2" failures="1" errors="0">
  <testsuite name="ex_a::hidden" tests="2" disabled="0" errors="0" failures="1">
    <testcase name="a_ok" classname="ex_a::hidden" timestamp="t" time="0.1">
      <system-out>GRADE-OK 12&#10;&lt;failure&gt; &amp; more</system-out>
    </testcase>
    <testcase name="a_bad" classname="ex_a::hidden" timestamp="t" time="0.1">
      <failure type="test failure">boom</failure>
      <system-out>x</system-out>
      <system-err>y</system-err>
    </testcase>
  </testsuite>
</testsuites>"#;
        let cases = parse(xml).unwrap();
        assert_eq!(cases.len(), 2);
        assert_eq!(cases[0].suite, "ex_a::hidden");
        assert_eq!(cases[0].failure, None);
        assert_eq!(cases[0].stdout, "GRADE-OK 12\n<failure> & more");
        assert_eq!(cases[1].failure.as_deref(), Some("test failure"));
        assert!(parse("<testsuites><oops").is_err());
    }
}
