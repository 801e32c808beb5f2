//! Writes that respect the file system, through the binary: a picture written onto a FIFO, a
//! device node, a symbolic link or a directory leaves each what it was (`boardlab::files`).

use std::os::unix::fs::FileTypeExt;
use std::path::Path;
use std::process::Command;

/// `boardlab show chess --svg TARGET`.
fn svg_to(target: &Path, data: &Path) -> std::process::Output {
    crate::binary(&["show", "chess", "--svg", target.to_str().unwrap()], "", data)
}

fn kind(p: &Path) -> std::fs::FileType {
    std::fs::symlink_metadata(p).unwrap().file_type()
}

#[test]
fn a_picture_onto_a_fifo_goes_through_it() {
    let dir = crate::scratch("files-fifo");
    let fifo = dir.join("pipe");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: mkfifo is not available here");
        return;
    }
    // The reader: opening blocks until boardlab opens the FIFO to write.
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let o = svg_to(&fifo, &dir);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // (Checked before waiting for the reader, which a FIFO replaced by a file leaves blocked.)
    assert!(kind(&fifo).is_fifo(), "the FIFO is still a FIFO");
    let got = reader.join().unwrap();
    assert!(got.starts_with("<svg") && got.trim_end().ends_with("</svg>"), "{}", &got[..got.len().min(200)]);
}

#[test]
fn a_picture_onto_a_device_node_leaves_a_device_node() {
    let dir = crate::scratch("files-device");
    let node = dir.join("null");
    // A node like /dev/null (character device 1,3); making one needs root.
    let made = Command::new("mknod").arg(&node).args(["c", "1", "3"]).stderr(std::process::Stdio::null()).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: mknod is not permitted here (it needs root)");
        return;
    }
    let o = svg_to(&node, &dir);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(kind(&node).is_char_device(), "the device node is still a device node");
    // And the PNG too, through the same function.
    let o = crate::binary(&["show", "chess", "--png", node.to_str().unwrap()], "", &dir);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(kind(&node).is_char_device());
}

#[test]
fn a_picture_onto_a_symlink_writes_its_target() {
    let dir = crate::scratch("files-link");
    std::fs::create_dir_all(dir.join("pictures")).unwrap();
    let real = dir.join("pictures/board.svg");
    std::fs::write(&real, "old").unwrap();
    let link = dir.join("link.svg");
    std::os::unix::fs::symlink("pictures/board.svg", &link).unwrap();
    let o = svg_to(&link, &dir);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(kind(&link).is_symlink(), "the link is still a link");
    assert_eq!(std::fs::read_link(&link).unwrap(), Path::new("pictures/board.svg"));
    assert!(std::fs::read_to_string(&real).unwrap().starts_with("<svg"), "its target has the picture");
}

#[test]
fn a_picture_onto_a_directory_is_refused_naming_it() {
    let dir = crate::scratch("files-dir");
    let target = dir.join("pictures");
    std::fs::create_dir_all(&target).unwrap();
    let o = svg_to(&target, &dir);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains(target.to_str().unwrap()) && err.contains("is a directory"), "{err}");
    assert!(std::fs::metadata(&target).unwrap().is_dir());
    assert_eq!(std::fs::read_dir(&target).unwrap().count(), 0, "nothing written in it");
    // The REPL's `show --svg` and `save` take the same way.
    let o = crate::binary(&["play", "checkers"], &format!("show --svg {}\n", target.display()), &dir);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("is a directory"));
}

#[test]
fn a_dash_is_standard_output_for_every_picture() {
    let dir = crate::scratch("files-dash");
    let o = crate::binary(&["selfplay", "tic-tac-toe", "--games", "2", "--threads", "1", "--svg", "-"], "", &dir);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.starts_with("<svg"), "{}", &out[..out.len().min(200)]);
    assert!(!dir.join("-").exists(), "no file named -");
}

/// No command echoes a long word of its arguments whole in its error, whichever part of the
/// program reads it (an engine, a variant name, an option's name or value, clap's own
/// arguments, a file name): a 3,000-character word comes back as a short quote.
#[test]
fn no_command_echoes_a_long_word_whole() {
    let data = crate::scratch("files-echo");
    let long = "q".repeat(3000);
    let set_value = format!("move_limit={long}");
    let set_name = format!("{long}=1");
    let cases: [&[&str]; 9] = [
        &["show", "chess", "--set", &set_value],
        &["show", "checkers", "--set", &set_name],
        &["show", &long],
        &["selfplay", "chess", "--games", "1", "--first", &long],
        &["arena", "chess", &long, "random", "--games", "1"],
        &["perft", "chess", &long],
        &["show", "chess", "--flip", &long],
        &["report", &long],
        &["moves", "chess", "--fen", &long],
    ];
    for (i, args) in cases.iter().enumerate() {
        let o = crate::binary(args, "", &data);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success() && o.status.code() != Some(101), "case {i} ({}): {:?}", args[0], o.status);
        assert!(
            err.len() < 1000 && !err.contains(&"q".repeat(300)),
            "case {i} ({}) echoed {} bytes: {}",
            args[0],
            err.len(),
            &err[..err.len().min(300)]
        );
    }
}
