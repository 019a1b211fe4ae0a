//! The two GitHub workflows, from checked-in templates (`xtask/grader/templates/`).
//!
//! The student edition's workflow has no placeholder and no secret: public tests and `progress`.
//! The teacher's workflow has two placeholders, the shard count and the matrix list, filled with
//! numbers written by serde_json (a JSON array is YAML): nothing is escaped by hand.

use crate::error::GradeError;

const STUDENT: &str = include_str!("../templates/student-progress.yml");
const TEACHER: &str = include_str!("../templates/teacher-grade-class.yml");

/// The student edition's `.github/workflows/classroom.yml`.
pub fn student() -> &'static str {
    STUDENT
}

/// The teacher's `.github/workflows/grade-class.yml`, grading in `shards` parallel jobs.
pub fn teacher(shards: u32) -> Result<String, GradeError> {
    if shards == 0 || shards > 256 {
        return Err(format!(
            "--shards {shards}: pick 1 to 256 (GitHub runs at most 256 jobs of a matrix)"
        )
        .into());
    }
    let list: Vec<u32> = (1..=shards).collect();
    let list = serde_json::to_string(&list).map_err(|e| GradeError::Format {
        what: "writing the shard list".into(),
        source: Box::new(e),
    })?;
    Ok(TEACHER
        .replace("__SHARDS__", &list)
        .replace("__SHARD_COUNT__", &shards.to_string()))
}

#[cfg(test)]
mod tests {
    #[test]
    fn student_workflow_has_no_secret_and_teacher_workflow_shards() {
        let student = super::student();
        assert!(!student.contains("secrets."), "{student}");
        assert!(student.contains("cargo xtask progress"));
        let teacher = super::teacher(4).unwrap();
        assert!(teacher.contains("shard: [1,2,3,4]"), "{teacher}");
        assert!(teacher.contains("--shard \"${SHARD}/4\""), "{teacher}");
        assert!(!teacher.contains("__"), "a placeholder is left:\n{teacher}");
        assert!(super::teacher(0).is_err());
    }
}
