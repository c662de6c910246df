// kb: small enhancements only; every page works without this file.
// Suggestions are built with DOM calls and textContent, never innerHTML: corpus text stays text.
// The search box and its suggestions follow the ARIA combobox pattern (an editable combobox
// with a list popup): the box keeps the focus, arrows move the active option, which the box
// names in aria-activedescendant; Enter opens it; Escape closes the list and keeps the query.
"use strict";
(function () {
  var boxes = 0;

  function suggestBox(input) {
    var id = "suggest-" + (++boxes);
    var list = document.createElement("ul");
    list.className = "suggest";
    list.id = id;
    list.setAttribute("role", "listbox");
    list.setAttribute("aria-label", input.getAttribute("data-suggest-label") || "Suggestions");
    list.hidden = true;
    input.setAttribute("role", "combobox");
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-expanded", "false");
    input.setAttribute("aria-controls", id);
    input.parentNode.insertBefore(list, input.nextSibling);
    var timer = null, active = -1, last = "", urls = [];

    function close() {
      list.hidden = true;
      list.textContent = "";
      urls = [];
      active = -1;
      input.setAttribute("aria-expanded", "false");
      input.removeAttribute("aria-activedescendant");
    }
    function mark(i) {
      var items = list.children;
      for (var k = 0; k < items.length; k++) {
        items[k].classList.toggle("active", k === i);
        items[k].setAttribute("aria-selected", k === i ? "true" : "false");
      }
      active = i;
      if (i >= 0) {
        input.setAttribute("aria-activedescendant", items[i].id);
        items[i].scrollIntoView({block: "nearest"});
      } else {
        input.removeAttribute("aria-activedescendant");
      }
    }
    function show(items) {
      list.textContent = "";
      urls = [];
      items.forEach(function (s, i) {
        var li = document.createElement("li");
        li.id = id + "-" + i;
        li.setAttribute("role", "option");
        li.setAttribute("aria-selected", "false");
        var kind = document.createElement("span");
        kind.className = "tag";
        kind.textContent = s.tag || s.kind;
        var label = document.createElement("span");
        label.className = "label";
        label.textContent = s.label;
        li.appendChild(kind);
        li.appendChild(label);
        if (s.detail) {
          var d = document.createElement("span");
          d.className = "detail";
          d.textContent = s.detail;
          li.appendChild(d);
        }
        // mousedown, not click: the box's blur would close the list first
        li.addEventListener("mousedown", function (e) {
          e.preventDefault();
          window.location.href = s.url;
        });
        urls.push(s.url);
        list.appendChild(li);
      });
      active = -1;
      input.removeAttribute("aria-activedescendant");
      list.hidden = items.length === 0;
      input.setAttribute("aria-expanded", items.length ? "true" : "false");
    }
    input.addEventListener("input", function () {
      clearTimeout(timer);
      var q = input.value.trim();
      if (!q) { close(); return; }
      timer = setTimeout(function () {
        last = q;
        fetch("/api/suggest?q=" + encodeURIComponent(q))
          .then(function (r) { return r.ok ? r.json() : []; })
          .then(function (items) { if (last === q && input.value.trim() === q) show(items); })
          .catch(close);
      }, 120);
    });
    input.addEventListener("keydown", function (e) {
      var n = list.children.length;
      if (e.key === "Escape") {
        // a search field's Escape would also empty it: close the list (and any list about to
        // open) but keep what was typed
        e.preventDefault();
        clearTimeout(timer);
        last = "";
        close();
        return;
      }
      if (list.hidden || !n) return;
      if (e.key === "ArrowDown") { mark((active + 1) % n); e.preventDefault(); }
      else if (e.key === "ArrowUp") { mark((active - 1 + n) % n); e.preventDefault(); }
      else if (e.key === "Enter" && active >= 0) {
        e.preventDefault();
        window.location.href = urls[active];
      }
    });
    input.addEventListener("blur", function () { setTimeout(close, 150); });
  }
  document.querySelectorAll("input[data-suggest]").forEach(suggestBox);
  var picker = document.getElementById("version-picker");
  if (picker) picker.addEventListener("change", function () { picker.form.submit(); });
})();
