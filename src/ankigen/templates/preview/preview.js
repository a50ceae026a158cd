// Day/night and phone/desktop switches, the search box and the filters (kept
// in the address, so a reload keeps them), the ready flag, and the update (the
// changed cards put in place, or a reload) after `ankigen watch` rebuilds.
(function () {
  var body = document.body;
  // "reload" after a rebuild (or F5), "navigate" when opened.
  var navigation = performance.getEntriesByType("navigation")[0];
  document.documentElement.dataset.navigation = navigation ? navigation.type : "navigate";
  var params = new URLSearchParams(location.search);

  function apply() {
    var night = params.get("theme") === "night";
    var phone = params.get("width") === "phone";
    // Anki's own classes for night mode: the note type's CSS follows them.
    body.classList.toggle("nightMode", night);
    body.classList.toggle("night_mode", night);
    body.classList.toggle("ag-phone", phone);
    document.getElementById("ag-theme").textContent = night ? "Day mode" : "Night mode";
    document.getElementById("ag-width").textContent = phone ? "Desktop width" : "Phone width";
  }

  function toggle(key, value) {
    if (params.get(key) === value) params.delete(key); else params.set(key, value);
    var query = params.toString();
    history.replaceState(null, "", (query ? "?" + query : location.pathname) + location.hash);
    apply();
  }

  document.getElementById("ag-theme").addEventListener("click", function () { toggle("theme", "night"); });
  document.getElementById("ag-width").addEventListener("click", function () { toggle("width", "phone"); });
  apply();

  function ready() {
    var errors = document.querySelectorAll("mjx-merror").length;
    if (errors && window.ankigenReport) window.ankigenReport(errors + " formula(s) MathJax cannot typeset");
    document.documentElement.dataset.ready = "1";
    var status = document.getElementById("ag-status");
    if (status && !status.textContent) status.textContent = "every image and formula shown";
  }
  // Search and filters: by words of a card's text (its formulas' TeX and image
  // descriptions included), by tag, by problem; kept in the address like the rest.
  var entries, sections, texts;
  function index() {
    entries = Array.prototype.slice.call(document.querySelectorAll(".ag-entry"));
    sections = Array.prototype.slice.call(document.querySelectorAll(".ag-section"));
    texts = entries.map(function (entry) {
      var alts = Array.prototype.map.call(entry.querySelectorAll("img[alt]"), function (img) {
        return img.getAttribute("alt");
      });
      return (entry.textContent + " " + alts.join(" ")).toLowerCase();
    });
  }
  index();
  var search = document.getElementById("ag-search");
  var tag = document.getElementById("ag-tag");
  var withProblems = document.getElementById("ag-with-problems");
  var shown = document.getElementById("ag-shown");

  function remember(key, value) {
    if (value) params.set(key, value); else params.delete(key);
    var query = params.toString();
    history.replaceState(null, "", (query ? "?" + query : location.pathname) + location.hash);
  }

  function filter() {
    var words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    var wanted = tag.value;
    var count = 0;
    entries.forEach(function (entry, index) {
      var visible = words.every(function (word) { return texts[index].indexOf(word) >= 0; }) &&
        (!wanted || (" " + entry.dataset.tags + " ").indexOf(" " + wanted + " ") >= 0) &&
        (!withProblems.checked || entry.dataset.issues !== "0");
      entry.hidden = !visible;
      if (visible) count += 1;
    });
    sections.forEach(function (section) {
      section.hidden = !section.querySelector(".ag-entry:not([hidden])");
    });
    shown.textContent = count === entries.length ? "" : count + " of " + entries.length + " cards shown";
    body.dataset.shown = String(count);
    remember("q", search.value);
    remember("tag", wanted);
    remember("problems", withProblems.checked ? "1" : "");
  }

  search.value = params.get("q") || "";
  tag.value = params.get("tag") || "";
  withProblems.checked = params.get("problems") === "1";
  search.addEventListener("input", filter);
  tag.addEventListener("change", filter);
  withProblems.addEventListener("change", filter);
  filter();

  if (window.ankigenMathJax) {
    window.ankigenMathJax.then(ready, function (error) { window.ankigenReport(String(error)); ready(); });
  } else {
    ready();
  }

  // `ankigen watch` rewrites <stem>.version.js after each rebuild, and before it
  // <stem>.patch.js: the cards that changed since the page it wrote last. When the
  // patch leads from this page's version to the new one, the changed cards are put
  // in place (the rest of the page, its scroll position and state stay); else reload.
  var stem = body.dataset.stem;
  var mine = body.dataset.version;
  var busy = false;
  function load(name, then) {
    var script = document.createElement("script");
    script.setAttribute("data-ag-poll", "");
    script.src = encodeURIComponent(stem) + "." + name + ".js?t=" + Date.now();
    script.onload = function () { script.remove(); then(true); };
    script.onerror = function () { script.remove(); then(false); };
    document.head.appendChild(script);
  }
  function reload(latest) {
    // Reload once per new version: if the page on disk is still the old one
    // (written by an older ankigen, say), do not reload again and again.
    var key = "ankigen-reloaded:" + stem;
    if (sessionStorage.getItem(key) === latest) return;
    sessionStorage.setItem(key, latest);
    location.reload();
  }
  function patch(latest, change) {
    // Each changed entry is HTML the build wrote for the page (its cards' allow-listed
    // HTML, every author string escaped), parsed inert in a <template>: nothing in it
    // runs, and the page's policy allows no script but its own.
    var places = Array.prototype.slice.call(
      document.querySelectorAll(".ag-deck > .ag-section > .ag-entry"));
    var fresh = [];
    for (var i = 0; i < change.entries.length; i++) {
      var old = places[change.entries[i][0]];
      if (!old) return false;
      var holder = document.createElement("template");
      holder.innerHTML = change.entries[i][1];
      var entry = holder.content.firstElementChild;
      if (!entry || holder.content.childElementCount !== 1) return false;
      fresh.push([old, entry]);
    }
    fresh.forEach(function (pair) { pair[0].replaceWith(pair[1]); });
    mine = latest;
    body.dataset.version = latest;
    body.dataset.patched = String(Number(body.dataset.patched || "0") + 1);
    index();
    filter();
    if (window.MathJax && window.MathJax.typesetPromise && fresh.length) {
      window.MathJax.typesetPromise(fresh.map(function (pair) { return pair[1]; }));
    }
    return true;
  }
  function poll() {
    if (busy) return;
    busy = true;
    load("version", function () {
      var latest = (window.ankigenVersions || {})[stem];
      if (!latest || latest === mine) { busy = false; return; }
      load("patch", function () {
        busy = false;
        var change = (window.ankigenPatches || {})[stem];
        if (change && change.from === mine && change.to === latest && patch(latest, change)) return;
        reload(latest);
      });
    });
  }
  setInterval(poll, 1000);
})();
