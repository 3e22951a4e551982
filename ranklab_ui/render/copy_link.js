// The Copy link button (copy_link.html): copies the page's own address, which is the permalink
// (ranklab_ui.session.state mirrors the example and the page's options into it), read when
// clicked: the frame's text never changes, so the browser does not load it again on every rerun.
// Its texts are the button's data attributes (ranklab_ui/render/links.py).
const button = document.getElementById("copy");
const text = document.getElementById("text");

function done(ok) {
  text.textContent = ok ? button.dataset.copied : button.dataset.failed;
  setTimeout(() => {
    text.textContent = button.dataset.again;
  }, 2500);
}

function fallback(link) {
  const area = document.createElement("textarea");
  area.value = link;
  document.body.appendChild(area);
  area.select();
  let ok = false;
  try {
    ok = document.execCommand("copy");
  } catch {
    ok = false;
  }
  area.remove();
  done(ok);
}

button.addEventListener("click", () => {
  const link = window.parent.location.href;
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(link).then(() => done(true), () => fallback(link));
  } else {
    fallback(link);
  }
});
