// Runs first: every script error, every media file that fails to load and
// everything the page's policy blocks is counted on <html data-problems> and listed in the toolbar.
(function () {
  var problems = [];
  window.ankigenProblems = problems;
  function report(message) {
    problems.push(message);
    document.documentElement.dataset.problems = String(problems.length);
    var status = document.getElementById("ag-status");
    if (status) {
      status.textContent = problems.length + " not shown: " + problems.join("; ");
      status.className = "ag-bad";
    }
  }
  window.ankigenReport = report;
  window.addEventListener("error", function (event) {
    var target = event.target;
    if (target && target !== window && target.getAttribute) {
      if (target.hasAttribute("data-ag-poll")) return; // the reload poll: not a card
      report("cannot load " + (target.getAttribute("src") || target.tagName));
    } else {
      report(event.message || "script error");
    }
  }, true);
  // Whatever the page's Content-Security-Policy stopped (a request, a script).
  document.addEventListener("securitypolicyviolation", function (event) {
    report("blocked by the page's policy: " + (event.blockedURI || event.violatedDirective));
  });
  document.documentElement.dataset.problems = "0";
})();
