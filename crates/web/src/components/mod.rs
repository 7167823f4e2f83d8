//! The playground's components, one per file.

pub mod action_menu;
pub mod app;
pub mod change_story;
pub mod cluster;
pub mod cycle;
pub mod editor;
pub mod events;
pub mod explain_panel;
pub mod files;
pub mod filter_matrix;
pub mod generate_dialog;
pub mod heatmap;
pub mod help;
pub mod node_card;
pub mod notices;
pub mod pipeline;
pub mod pod_chip;
pub mod preemption;
pub mod profiles;
pub mod queue;
pub mod score_table;
pub mod splitter;
pub mod story;
pub mod timeline;
pub mod topbar;
pub mod transport;
