use super::*;

fn paths(list: &[&str]) -> Vec<String> {
    list.iter().map(|p| p.to_string()).collect()
}

/// `text` parsed, as JSON.
fn json(text: &str) -> Value {
    let text = text.strip_prefix(crate::text::BOM).unwrap_or(text);
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// The sources of the entries of `headers`, in order, with whether each is ours.
fn sources(text: &str) -> Vec<(String, bool)> {
    let value = json(text);
    let items = value[HEADERS].as_array().cloned().unwrap_or_default();
    (items.iter())
        .map(|item| {
            let source = item["source"].as_str().unwrap_or_default().to_string();
            (source, ours(&item.to_string()).is_some())
        })
        .collect()
}

#[test]
fn our_entries_go_in_and_out_and_no_other_byte_changes() {
    let ours = paths(&["/llms.txt", "/llms-full.txt"]);
    let user = "{\n  \"cleanUrls\": true,\n  \"headers\": [\n    { \"source\": \"/(.*)\", \"headers\": [{ \"key\": \"X-Frame-Options\", \"value\": \"DENY\" }] }\n  ]\n}\n";
    let added = with_entries(user, &ours).unwrap();
    assert!(
        added.contains(&format!(
            "\"headers\": [\n    {},\n    {},\n    {{ \"source\": \"/(.*)\"",
            entry("/llms.txt"),
            entry("/llms-full.txt")
        )),
        "{added}"
    );
    assert_eq!(with_entries(&added, &ours).unwrap(), added);
    // One less due, then none: the file comes back as it was.
    let one = with_entries(&added, &ours[..1]).unwrap();
    assert!(!one.contains("llms-full") && one.contains("/llms.txt"));
    assert_eq!(with_entries(&one, &[]).unwrap(), user);
    assert!(with_entries("{ \"headers\": [ \"a ", &ours).is_err());
}

/// Files of every shape get our entry where Vercel reads it, once, and lose it again
/// leaving the user's JSON (and, where said, their bytes) as they were.
#[test]
fn every_shape_of_file_is_edited_on_its_parse() {
    let ours = paths(&["/llms.txt"]);
    // (file, whether taking ours away again gives back its very bytes)
    let table = [
        ("{\n  \"cleanUrls\": true\n}\n", false),
        ("{ \"headers\": [] }", false),
        ("{\n  \"headers\": [\n  ]\n}\n", true),
        ("{}", false),
        ("{\n}\n", false),
        ("{\"headers\":[{\"source\":\"/a\",\"headers\":[]}]}", true),
        // A value "headers", a key "headers" deeper down, "headers" in a string.
        ("{ \"name\": \"headers\" }", false),
        (
            "{ \"x\": { \"headers\": 1 }, \"y\": [\"headers\", \"{ \\\"headers\\\": [\"] }",
            false,
        ),
        (
            "{\r\n  \"headers\": [\r\n    { \"source\": \"/a\", \"headers\": [] }\r\n  ]\r\n}\r\n",
            true,
        ),
        (
            "\u{feff}{\n  \"headers\": [\n    { \"source\": \"/a\", \"headers\": [] }\n  ]\n}\n",
            true,
        ),
        ("\u{feff}{ \"cleanUrls\": true }", false),
        // An escaped key is the same key.
        (
            "{ \"head\\u0065rs\": [{ \"source\": \"/a\", \"headers\": [] }] }",
            true,
        ),
    ];
    for (text, same_bytes) in table {
        let added = with_entries(text, &ours).unwrap_or_else(|e| panic!("{e}: {text}"));
        let got = sources(&added);
        assert_eq!(got[0], ("/llms.txt".to_string(), true), "{text} -> {added}");
        assert_eq!(got.iter().filter(|(_, ours)| *ours).count(), 1, "{added}");
        let users = |text: &str| users_part(text.trim_start_matches('\u{feff}')).unwrap();
        assert_eq!(users(&added), users(text));
        assert_eq!(added.starts_with('\u{feff}'), text.starts_with('\u{feff}'));
        assert_eq!(added.contains("\r\n"), text.contains("\r\n"));
        if text.contains("\r\n") {
            assert!(!added.replace("\r\n", "").contains('\n'), "{added:?}");
        }
        assert_eq!(with_entries(&added, &ours).unwrap(), added, "{text}");
        let removed = with_entries(&added, &[]).unwrap();
        match same_bytes {
            true => assert_eq!(removed, text),
            false => assert_eq!(json(&removed).get("cleanUrls"), json(text).get("cleanUrls")),
        }
    }
}

/// An entry is ours only as the exact JSON we write, mark included: the user's own,
/// even one that says just what ours say (as ours were once written), is kept.
#[test]
fn the_users_entries_are_never_replaced_or_removed() {
    let theirs = "{ \"source\": \"/secret.html\", \"headers\": [{ \"key\": \"X-Robots-Tag\", \"value\": \"noindex\" }] }";
    let their_llms = "{ \"source\": \"/llms.txt\", \"headers\": [{ \"key\": \"X-Robots-Tag\", \"value\": \"noindex\" }] }";
    let edited_ours = entry("/llms.txt").replace("noindex\" }", "noindex, nofollow\" }");
    for entry_of_theirs in [theirs, their_llms, &edited_ours] {
        let text = format!("{{\n  \"headers\": [\n    {entry_of_theirs}\n  ]\n}}\n");
        for due in [&["/llms.txt"][..], &["/llms-full.txt"], &[]] {
            let new = with_entries(&text, &paths(due)).unwrap();
            assert!(new.contains(entry_of_theirs), "{due:?}: {new}");
            let removed = with_entries(&new, &[]).unwrap();
            assert_eq!(removed, text);
        }
    }
    // Ours reformatted (a formatter ran) is still ours; a second copy of ours goes.
    let pretty = serde_json::to_string_pretty(&json(&entry("/llms.txt"))).unwrap();
    let text = format!("{{ \"headers\": [{pretty}, {}] }}", entry("/llms.txt"));
    let once = with_entries(&text, &paths(&["/llms.txt"])).unwrap();
    assert_eq!(once, format!("{{ \"headers\": [{pretty}] }}"));
    assert_eq!(with_entries(&text, &[]).unwrap(), "{ \"headers\": [] }");
}

#[test]
fn files_that_cannot_be_edited_say_why() {
    let ours = paths(&["/llms.txt"]);
    let table = [
        ("{ \"headers\": {} }", "\"headers\" is not an array"),
        ("{ \"headers\": null }", "\"headers\" is not an array"),
        (
            "{ \"headers\": [], \"headers\": [] }",
            "the key \"headers\" is there twice",
        ),
        ("[]", "a JSON object"),
        ("{ \"a\": 1, }", "trailing comma"),
        ("", "EOF"),
    ];
    for (text, why) in table {
        let err = with_entries(text, &ours).unwrap_err();
        assert!(err.contains(why), "{text}: {err}");
    }
}
