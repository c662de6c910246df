// kb: small enhancements only; every page works without this file.
// Suggestions are built with DOM calls and textContent, never innerHTML: corpus text stays text.
"use strict";
(function () {
  function suggestBox(input) {
    var list = document.createElement("ul");
    list.className = "suggest";
    list.setAttribute("role", "listbox");
    list.hidden = true;
    input.setAttribute("aria-autocomplete", "list");
    input.parentNode.insertBefore(list, input.nextSibling);
    var timer = null, active = -1, last = "";

    function clear() { list.hidden = true; list.textContent = ""; active = -1; }
    function mark(i) {
      var items = list.children;
      for (var k = 0; k < items.length; k++) items[k].classList.toggle("active", k === i);
      active = i;
    }
    function show(items) {
      list.textContent = "";
      items.forEach(function (s) {
        var li = document.createElement("li");
        li.setAttribute("role", "option");
        var a = document.createElement("a");
        a.href = s.url;
        var label = document.createElement("span");
        label.className = "label";
        label.textContent = s.label;
        var kind = document.createElement("span");
        kind.className = "tag";
        kind.textContent = s.tag || s.kind;
        a.appendChild(kind);
        a.appendChild(label);
        if (s.detail) {
          var d = document.createElement("span");
          d.className = "detail";
          d.textContent = s.detail;
          a.appendChild(d);
        }
        li.appendChild(a);
        list.appendChild(li);
      });
      list.hidden = items.length === 0;
      active = -1;
    }
    input.addEventListener("input", function () {
      clearTimeout(timer);
      var q = input.value.trim();
      if (!q) { clear(); return; }
      timer = setTimeout(function () {
        last = q;
        fetch("/api/suggest?q=" + encodeURIComponent(q))
          .then(function (r) { return r.ok ? r.json() : []; })
          .then(function (items) { if (last === q) show(items); })
          .catch(clear);
      }, 120);
    });
    input.addEventListener("keydown", function (e) {
      var n = list.children.length;
      if (list.hidden || !n) return;
      if (e.key === "ArrowDown") { mark((active + 1) % n); e.preventDefault(); }
      else if (e.key === "ArrowUp") { mark((active - 1 + n) % n); e.preventDefault(); }
      else if (e.key === "Escape") { clear(); }
      else if (e.key === "Enter" && active >= 0) {
        e.preventDefault();
        window.location.href = list.children[active].firstChild.href;
      }
    });
    input.addEventListener("blur", function () { setTimeout(clear, 200); });
  }
  document.querySelectorAll("input[data-suggest]").forEach(suggestBox);
  var picker = document.getElementById("version-picker");
  if (picker) picker.addEventListener("change", function () { picker.form.submit(); });
})();
