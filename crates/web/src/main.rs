//! Mounts the playground.

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(schedlab_web::components::app::App);
}
