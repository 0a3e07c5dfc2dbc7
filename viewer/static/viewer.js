// skill-memory viewer: the only script (CSP allows nothing else). Pages work without it.
"use strict";
document.addEventListener("submit", (event) => {
  const form = event.target;
  const question = form instanceof HTMLFormElement ? form.dataset.confirm : undefined;
  if (question && !window.confirm(question)) {
    event.preventDefault();
  }
});
document.addEventListener("keydown", (event) => {
  const typing = event.target instanceof HTMLElement &&
    ["INPUT", "TEXTAREA", "SELECT"].includes(event.target.tagName);
  if (event.key === "/" && !typing) {
    const box = document.querySelector("input[type=search]");
    if (box) {
      event.preventDefault();
      box.focus();
    } else {
      window.location.assign("/search");
    }
  }
});
