// brackets-viewer picks its language when it loads, from the browser's
// storage before the browser's own language: make it the page's.
try { localStorage.setItem("i18nextLng", document.documentElement.lang); } catch (e) { /* storage refused: English */ }
