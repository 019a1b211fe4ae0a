enum Job {
    Recording,
    Submitted,
    Done,
}

fn name(job: &Job) -> &'static str {
    match job {
        Job::Recording => "recording",
        Job::Submitted => "submitted",
        // `Job::Done` is not handled: the match is not exhaustive
    }
}

fn main() {
    println!("{}", name(&Job::Done));
}
