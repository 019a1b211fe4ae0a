//! GPU timing scopes on whatever adapter is here (lavapipe in CI): the structure of the tree,
//! the labels and the order of the times. Durations themselves are not asserted.

use gpu_context::{GpuScopes, ScopeTiming};

const DOUBLE: &str = "
@group(0) @binding(0) var<storage, read_write> data: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x < arrayLength(&data)) { data[id.x] = data[id.x] * 2.0; }
}";

fn one_frame(scopes: &mut GpuScopes, ctx: &gpu_context::GpuContext) -> Vec<ScopeTiming> {
    let pipeline = ctx.compile_pipeline("double", DOUBLE, "main").unwrap();
    let data = ctx.upload("data", &vec![1.0f32; 4096]).unwrap();
    let bind = ctx.bind_buffers(&pipeline, &[&data]);
    let mut encoder = ctx.device.create_command_encoder(&Default::default());
    {
        let mut frame = scopes.profiler().scope("frame", &mut encoder);
        for name in ["first pass", "second pass"] {
            let mut pass = frame.scoped_compute_pass(name);
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &bind, &[]);
            pass.dispatch_workgroups(64, 1, 1);
        }
    }
    scopes.resolve(&mut encoder);
    ctx.queue.submit([encoder.finish()]);
    scopes.finish_frame(ctx).unwrap()
}

#[test]
fn scopes_nest_with_their_names_and_ordered_times() {
    let ctx = GpuScopes::open_context().expect("an adapter with timestamp queries");
    let mut scopes = GpuScopes::new(&ctx).unwrap();
    for _ in 0..3 {
        let roots = one_frame(&mut scopes, &ctx);
        assert_eq!(roots.len(), 1, "one root scope per frame: {roots:?}");
        let frame = &roots[0];
        assert_eq!(frame.label, "frame");
        let names: Vec<&str> = frame.children.iter().map(|c| c.label.as_str()).collect();
        assert_eq!(names, ["first pass", "second pass"]);
        for (_, scope) in frame.walk() {
            assert!(scope.start_s <= scope.end_s, "{scope:?}");
        }
        for child in &frame.children {
            assert!(frame.start_s <= child.start_s && child.end_s <= frame.end_s);
        }
        let (a, b) = (&frame.children[0], &frame.children[1]);
        assert!(a.end_s <= b.start_s, "passes run in submission order");
    }
}

#[test]
fn walk_lists_depth_first_with_depths() {
    let leaf = |label: &str| ScopeTiming {
        label: label.into(),
        start_s: 0.0,
        end_s: 1.0,
        children: vec![],
    };
    let mut inner = leaf("b");
    inner.children.push(leaf("c"));
    let mut root = leaf("a");
    root.children = vec![inner, leaf("d")];
    let order: Vec<(usize, &str)> = root
        .walk()
        .into_iter()
        .map(|(d, s)| (d, s.label.as_str()))
        .collect();
    assert_eq!(order, [(0, "a"), (1, "b"), (2, "c"), (1, "d")]);
}
