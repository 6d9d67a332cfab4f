//! Google Search Console: telling it of the sitemap, and reading back what it thinks.
