// stylelint for our CSS (the components' files, the app's style rules): the recommended rules,
// which catch mistakes. no-descending-specificity is off: it asks for rules ordered by
// specificity, and ours are ordered by what they style (a part, then its states).
// tests/test_lint_assets.py runs it.
export default {
  extends: ["stylelint-config-recommended"],
  rules: {
    "no-descending-specificity": null,
  },
};
