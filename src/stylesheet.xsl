<?xml version="1.0" encoding="UTF-8"?>
<!-- sitemapgen's stylesheet: shows a sitemap or sitemap index as a table when a browser
     opens it. Browsers apply it only to files served over http(s), from the same origin.
     No scripts, fonts or images are loaded. -->
<xsl:stylesheet version="1.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9"
    xmlns:xhtml="http://www.w3.org/1999/xhtml"
    xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"
    exclude-result-prefixes="s xhtml image">

  <xsl:output method="html" encoding="UTF-8" indent="yes"
      doctype-system="about:legacy-compat"/>

  <xsl:template match="/">
    <html lang="en">
      <head>
        <meta charset="utf-8"/>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <meta name="color-scheme" content="light dark"/>
        <meta name="robots" content="noindex"/>
        <title>
          <xsl:choose>
            <xsl:when test="s:sitemapindex">Sitemap index</xsl:when>
            <xsl:otherwise>Sitemap</xsl:otherwise>
          </xsl:choose>
        </title>
        <style>
          :root {
            --fg: #1f2328; --muted: #59636e; --bg: #ffffff; --rule: #d1d9e0;
            --stripe: #f6f8fa; --link: #0550ae; --head: #eef1f4;
          }
          @media (prefers-color-scheme: dark) {
            :root {
              --fg: #e6edf3; --muted: #9198a1; --bg: #0d1117; --rule: #3d444d;
              --stripe: #151b23; --link: #6cb6ff; --head: #1c232c;
            }
          }
          body {
            margin: 0; padding: 2rem 1.5rem; background: var(--bg); color: var(--fg);
            font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
          }
          main { max-width: 72rem; margin: 0 auto; }
          h1 { font-size: 1.5rem; margin: 0 0 0.25rem; }
          p { color: var(--muted); margin: 0 0 1.5rem; }
          table { width: 100%; border-collapse: collapse; }
          caption { text-align: left; color: var(--muted); padding-bottom: 0.5rem; }
          th, td {
            text-align: left; vertical-align: top; padding: 0.45rem 0.6rem;
            border-bottom: 1px solid var(--rule);
          }
          th { background: var(--head); font-weight: 600; white-space: nowrap; }
          tbody tr:nth-child(even) { background: var(--stripe); }
          td.url { word-break: break-all; }
          td.num, th.num { text-align: right; white-space: nowrap; }
          td.date { white-space: nowrap; font-variant-numeric: tabular-nums; }
          a { color: var(--link); }
          a:focus-visible { outline: 2px solid var(--link); outline-offset: 2px; }
          ul { margin: 0; padding: 0; list-style: none; }
          .lang { display: inline-block; min-width: 2.5rem; color: var(--muted); }
        </style>
      </head>
      <body>
        <main>
          <xsl:apply-templates select="s:sitemapindex | s:urlset"/>
        </main>
      </body>
    </html>
  </xsl:template>

  <!-- An index: one row per child sitemap. -->
  <xsl:template match="s:sitemapindex">
    <h1>Sitemap index</h1>
    <p>
      <xsl:value-of select="count(s:sitemap)"/>
      <xsl:text> sitemap</xsl:text>
      <xsl:if test="count(s:sitemap) != 1">s</xsl:if>
      <xsl:text>. Written for search engines; this page is a view of it.</xsl:text>
    </p>
    <table>
      <caption>The sitemaps this index lists</caption>
      <thead>
        <tr>
          <th scope="col" class="num">#</th>
          <th scope="col">Sitemap</th>
          <th scope="col">Last modified</th>
        </tr>
      </thead>
      <tbody>
        <xsl:for-each select="s:sitemap">
          <tr>
            <td class="num"><xsl:value-of select="position()"/></td>
            <td class="url"><a href="{s:loc}"><xsl:value-of select="s:loc"/></a></td>
            <td class="date"><xsl:value-of select="s:lastmod"/></td>
          </tr>
        </xsl:for-each>
      </tbody>
    </table>
  </xsl:template>

  <!-- A sitemap: one row per URL; columns no URL has a value for are left out. -->
  <xsl:template match="s:urlset">
    <xsl:variable name="lastmod" select="count(s:url/s:lastmod) &gt; 0"/>
    <xsl:variable name="changefreq" select="count(s:url/s:changefreq) &gt; 0"/>
    <xsl:variable name="priority" select="count(s:url/s:priority) &gt; 0"/>
    <xsl:variable name="alternates" select="count(s:url/xhtml:link) &gt; 0"/>
    <xsl:variable name="images" select="count(s:url/image:image) &gt; 0"/>
    <h1>Sitemap</h1>
    <p>
      <xsl:value-of select="count(s:url)"/>
      <xsl:text> URL</xsl:text>
      <xsl:if test="count(s:url) != 1">s</xsl:if>
      <xsl:if test="$images">
        <xsl:text>, </xsl:text>
        <xsl:value-of select="count(s:url/image:image)"/>
        <xsl:text> image</xsl:text>
        <xsl:if test="count(s:url/image:image) != 1">s</xsl:if>
      </xsl:if>
      <xsl:text>. Written for search engines; this page is a view of it.</xsl:text>
    </p>
    <table>
      <caption>The URLs this sitemap lists</caption>
      <thead>
        <tr>
          <th scope="col" class="num">#</th>
          <th scope="col">URL</th>
          <xsl:if test="$lastmod"><th scope="col">Last modified</th></xsl:if>
          <xsl:if test="$changefreq"><th scope="col">Change frequency</th></xsl:if>
          <xsl:if test="$priority"><th scope="col" class="num">Priority</th></xsl:if>
          <xsl:if test="$alternates"><th scope="col">Languages</th></xsl:if>
          <xsl:if test="$images"><th scope="col" class="num">Images</th></xsl:if>
        </tr>
      </thead>
      <tbody>
        <xsl:for-each select="s:url">
          <tr>
            <td class="num"><xsl:value-of select="position()"/></td>
            <td class="url"><a href="{s:loc}"><xsl:value-of select="s:loc"/></a></td>
            <xsl:if test="$lastmod">
              <td class="date"><xsl:value-of select="s:lastmod"/></td>
            </xsl:if>
            <xsl:if test="$changefreq"><td><xsl:value-of select="s:changefreq"/></td></xsl:if>
            <xsl:if test="$priority"><td class="num"><xsl:value-of select="s:priority"/></td></xsl:if>
            <xsl:if test="$alternates">
              <td>
                <ul>
                  <xsl:for-each select="xhtml:link[@rel = 'alternate']">
                    <li>
                      <span class="lang"><xsl:value-of select="@hreflang"/></span>
                      <a href="{@href}"><xsl:value-of select="@href"/></a>
                    </li>
                  </xsl:for-each>
                </ul>
              </td>
            </xsl:if>
            <xsl:if test="$images">
              <td class="num"><xsl:value-of select="count(image:image)"/></td>
            </xsl:if>
          </tr>
        </xsl:for-each>
      </tbody>
    </table>
  </xsl:template>
</xsl:stylesheet>
