//! Writing what was collected: the sitemap, the `"content"` state, robots.txt.

use std::path::Path;

use super::Collection;
use crate::config::{Config, Output};
use crate::error::Error;
use crate::fsutil::{At, Place};
use crate::lastmod::state::Prepared;
use crate::robots::{self, Announced, RobotsError, RobotsTxt};
use crate::sitemap::{self, ChildPrefix, Group, Limits, WriteError, Written};
use crate::{urls, views};

/// The URL of the directory `output` is published in: its place under the public
/// directory, or the base URL when it is written elsewhere.
fn child_prefix(config: &Config, output: &Path) -> ChildPrefix {
    let parent = crate::fsutil::parent_dir(output);
    let real = |p: &Path| std::fs::canonicalize(p).ok();
    let rel = match (real(parent), real(&config.public_dir)) {
        (Some(parent), Some(public)) => parent.strip_prefix(&public).ok().map(Path::to_path_buf),
        _ => None,
    };
    let mut loc_prefix = urls::file_url(config.base_url.as_str(), &rel.unwrap_or_default());
    if !loc_prefix.ends_with('/') {
        loc_prefix.push('/');
    }
    ChildPrefix { loc_prefix }
}

/// What [`write()`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct WriteOutcome {
    /// The files written; `None` when the sitemap went to standard output.
    pub written: Option<Written>,
    /// The sitemap's absolute URL, when written to a file.
    pub url: Option<String>,
    /// What was done to robots.txt, when `robots_txt` asks for anything.
    pub robots: Option<Announced>,
    /// The bundled stylesheet, when `stylesheet = "default"` had it written.
    pub stylesheet: Option<std::path::PathBuf>,
    /// The views written (`sitemap.html`, `llms.txt`), when any is asked for.
    pub views: Option<views::Written>,
    /// What was done to `_headers` for `llms.txt`, when the host reads one.
    pub host_headers: Option<crate::host::Served>,
    /// Sitemaps in the site that this run neither wrote nor removed (a generator's own,
    /// per language), sorted: search engines that find one read a list of its own.
    pub others: Vec<std::path::PathBuf>,
}

/// Writes the collection where the configuration says (standard output is `out`), then
/// saves the `"content"` state and announces the sitemap in robots.txt if asked to.
pub fn write(
    config: &Config,
    collection: &Collection,
    out: &mut dyn std::io::Write,
) -> Result<WriteOutcome, Error> {
    let limits = Limits {
        max_urls: config.max_urls_per_file,
        max_bytes: sitemap::PROTOCOL_MAX_BYTES,
    };
    let path = match &config.output {
        Output::Stdout => {
            sitemap::write_single(out, collection.entries.as_slice(), limits, form(config))?;
            save_state(config, collection)?;
            return Ok(WriteOutcome {
                written: None,
                url: None,
                robots: None,
                stylesheet: None,
                views: None,
                host_headers: None,
                others: Vec::new(),
            });
        }
        Output::File(path) => path,
    };
    let groups = groups(collection);
    // Before the first directory or file is made: what the counts refuse is refused now.
    sitemap::refuse_too_many_files(&groups, limits, config.format)?;
    // A hand-written sitemap.html or llms.txt is refused before anything is written.
    let site = views::Site {
        settings: &config.views,
        public_dir: &config.public_dir,
        base_url: config.base_url.as_str(),
        entries: collection.entries.as_slice(),
        about: &collection.about,
        sections: &collection.sections,
        view_files: Some(&collection.view_files),
    };
    // A shard's views are the merge's to write, from what its manifest records.
    let views_here = config.shard.is_none();
    if views_here {
        views::refuse_foreign(&site)?;
    }
    make_output_dir(config, path)?;
    // Before the sitemap that links to it, so it is never linked while missing.
    let stylesheet = match &config.stylesheet {
        Some(s) if s.bundled => Some(crate::stylesheet::write_bundled(&config.public_dir)?),
        _ => None,
    };
    let prefix = child_prefix(config, path);
    let url = prefix.url_of(path);
    // The state is written beside the sitemaps, and put in place once they are.
    let (written, prepared) = std::thread::scope(|s| {
        let prepared = s.spawn(|| prepare_state(config, collection));
        let written = match &config.shard {
            None => sitemap::write_files(path, &prefix, &groups, limits, form(config)),
            Some(name) => {
                let shard = crate::shard::ShardBuild {
                    name,
                    output: path,
                    base_url: config.base_url.as_str(),
                    url_form: crate::shard::UrlForm::of(&config.url_style),
                    prefix: &prefix,
                    changes: collection.changes.as_ref(),
                    about: config.views.any().then_some(&collection.about),
                    sections: &collection.sections,
                };
                crate::shard::write(&shard, &groups, limits, form(config))
            }
        };
        (written, prepared.join().expect("the state thread panicked"))
    });
    let written = written?;
    commit_state(config, collection, prepared?)?;
    write_indexnow_key(config)?;
    // With none on, an earlier run's views are removed.
    let views = views_here.then(|| views::write(&site, &url)).transpose()?;
    let views = views.filter(|v| config.views.any() || !v.removed.is_empty());
    let host_headers = serve_own_files(config)?;
    let robots = announce(config, &written, &url, &prefix)?;
    let others = match config.shard {
        None => others(config, collection, &written),
        // Other shards' files are the merge's.
        Some(_) => Vec::new(),
    };
    Ok(WriteOutcome {
        others,
        written: Some(written),
        url: Some(url),
        robots,
        stylesheet,
        views,
        host_headers,
    })
}

/// The sitemaps the walk found that this run neither wrote nor removed, and that hold
/// a sitemap or an index still.
fn others(config: &Config, collection: &Collection, written: &Written) -> Vec<std::path::PathBuf> {
    let ours: std::collections::HashSet<&Path> = [&written.path]
        .into_iter()
        .chain(&written.children)
        .chain(&written.removed)
        .chain(&written.other_form)
        .map(|p| p.as_path())
        .collect();
    let mut others: Vec<_> = (collection.sitemap_files.iter())
        .map(|rel| config.public_dir.join(rel))
        .filter(|path| !ours.contains(path.as_path()))
        .filter(|path| {
            use crate::sitemap::read::{Root, root_of};
            matches!(root_of(path), Some(Root::Urlset | Root::Index))
        })
        .collect();
    others.sort();
    others
}

/// Announces the sitemap in robots.txt as `robots_txt` asks (each file of a split text
/// sitemap, which has no index); a shard leaves it to the merge, which writes the index.
fn announce(
    config: &Config,
    written: &Written,
    url: &str,
    prefix: &ChildPrefix,
) -> Result<Option<Announced>, Error> {
    let mode = match config.robots_txt {
        _ if config.shard.is_some() => return Ok(None),
        RobotsTxt::Leave => return Ok(None),
        mode => mode,
    };
    let host_root = url::Url::parse(config.base_url.as_str()).map_err(|e| RobotsError::Parse {
        path: config.public_dir.join("robots.txt"),
        message: e.to_string(),
    })?;
    let announced = robots::announce(&config.public_dir, url, &host_root, mode)?;
    if !written.indexed {
        for child in &written.children {
            robots::announce(&config.public_dir, &prefix.url_of(child), &host_root, mode)?;
        }
    }
    Ok(Some(announced))
}

/// Puts our `X-Robots-Tag: noindex` lines for `llms.txt` and `llms-full.txt` into
/// `_headers` when the host reads one (or `host_headers = true`), and takes them away
/// when they are no longer due. A shard leaves it to the merge, which writes the views
/// and calls this with its own config.
pub fn serve_own_files(config: &Config) -> Result<Option<crate::host::Served>, Error> {
    if !config.host_config || config.shard.is_some() {
        return Ok(None);
    }
    let views = &config.views;
    let base_path = config.base_url.url().path();
    let due = |on: bool| -> Vec<String> {
        (views.noindexed())
            .filter(|_| on)
            .map(|name| format!("{base_path}{name}"))
            .collect()
    };
    let found = config
        .host_files
        .as_ref()
        .map(crate::host::HostFiles::found);
    // Vercel reads no _headers: its vercel.json is edited, only when asked.
    if let Some(found) = found.filter(|found| found.headers_in_project_json()) {
        let Some(file) = found.files.first() else {
            return Ok(None);
        };
        let paths = due(config.host_headers == Some(true));
        return Ok(Some(crate::host::serve_noindex_json(file, &paths)?));
    }
    let on =
        (config.host_headers).unwrap_or_else(|| crate::host::reads_headers(config.host_places()));
    let served = crate::host::serve_noindex(&config.public_dir, &due(on), on)?;
    Ok(Some(served))
}

/// The collection's entries by section (see [`Collection::sections`]); one unnamed group
/// without sections.
fn groups(collection: &Collection) -> Vec<Group<'_>> {
    if collection.sections.is_empty() {
        return vec![Group {
            section: None,
            entries: collection.entries.as_slice(),
        }];
    }
    let mut rest = collection.entries.as_slice();
    let mut groups = Vec::with_capacity(collection.sections.len());
    for section in &collection.sections {
        let (entries, after) = rest.split_at(section.urls);
        rest = after;
        groups.push(Group {
            section: section.name.as_deref(),
            entries,
        });
    }
    groups
}

/// Creates the output's directory if need be. An output from the config file must stay in
/// the site: its nearest existing directory is checked before anything is created (so no
/// directory is made through a link leading out), and its directory after.
fn make_output_dir(config: &Config, path: &Path) -> Result<(), WriteError> {
    let parent = crate::fsutil::parent_dir(path);
    let in_site = |dir: &Path| -> Result<(), WriteError> {
        if !config.output_in_site {
            return Ok(());
        }
        let public_dir = std::fs::canonicalize(&config.public_dir).at(parent)?;
        match crate::fsutil::place_in(&public_dir, dir).at(parent)? {
            Place::Inside(_) => Ok(()),
            Place::Outside(real) => Err(WriteError::Outside {
                path: path.to_path_buf(),
                real,
                public_dir,
            }),
        }
    };
    let existing = parent
        .ancestors()
        .find(|d| d.exists())
        .unwrap_or(Path::new("."));
    in_site(if existing.as_os_str().is_empty() {
        Path::new(".")
    } else {
        existing
    })?;
    std::fs::create_dir_all(parent).at(parent)?;
    in_site(parent)
}

/// With `indexnow_key_file = true`, writes `public_dir/{key}.txt` holding the key, which
/// IndexNow fetches to check that submissions come from the site's owner.
fn write_indexnow_key(config: &Config) -> Result<(), WriteError> {
    let (true, Some(key)) = (config.indexnow.key_file, &config.indexnow.key) else {
        return Ok(());
    };
    let name = format!("{key}.txt");
    let written = crate::fsutil::write_locked(&config.public_dir, &name, key.as_bytes());
    Ok(written.at(config.public_dir.join(name))?)
}

/// How the configuration says sitemaps are written.
fn form(config: &Config) -> sitemap::Form<'_> {
    sitemap::Form {
        stylesheet: config.stylesheet.as_ref().map(|s| s.href.as_str()),
        format: config.format,
        gzip: config.gzip,
        lastmod: config.lastmod_format,
    }
}

/// Saves the state, once the sitemap it describes is written, and the change list beside
/// it.
fn save_state(config: &Config, collection: &Collection) -> Result<(), Error> {
    if let Some(state) = &collection.state {
        let owned = config.base_url.as_str();
        state.save(&config.state_file, owned, &collection.entries)?;
    }
    save_changes(config, collection)
}

/// The state written into its temporary file, while the sitemaps are written.
fn prepare_state(config: &Config, collection: &Collection) -> Result<Option<Prepared>, Error> {
    let Some(state) = &collection.state else {
        return Ok(None);
    };
    let owned = config.base_url.as_str();
    Ok(Some(state.prepare(
        &config.state_file,
        owned,
        &collection.entries,
    )?))
}

/// [`save_state`] of a state [`prepare_state`] wrote, once the sitemaps are written.
fn commit_state(
    config: &Config,
    collection: &Collection,
    prepared: Option<Prepared>,
) -> Result<(), Error> {
    if let (Some(state), Some(prepared)) = (&collection.state, prepared) {
        let owned = config.base_url.as_str();
        state.commit(prepared, &config.state_file, owned, &collection.entries)?;
    }
    save_changes(config, collection)
}

/// Saves the change list beside the state; a shard's is in its manifest, for the merge
/// to join.
fn save_changes(config: &Config, collection: &Collection) -> Result<(), Error> {
    if config.shard.is_some() {
        return Ok(());
    }
    if let Some(changes) = &collection.changes {
        let path = crate::changes::path_beside(&config.state_file);
        let now = jiff::Timestamp::now();
        crate::changes::save(&path, config.base_url.as_str(), now, changes)
            .at(&path)
            .map_err(WriteError::from)?;
    }
    Ok(())
}
