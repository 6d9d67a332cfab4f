//! Bing Webmaster Tools: telling it of the sitemap and the changed URLs, and reading
//! back what it thinks.
