// The parts of the page loaded only when first shown (src/ui/lazy.rs): the first call loads the page's second wasm
// module (panels.js, wasm-bindgen's no-modules glue, and panels_bg.wasm), once; every call then mounts one panel
// into the element the page made for it.
window.bagsimPanels = (function () {
  let loaded = null;
  function load() {
    if (!loaded) {
      loaded = new Promise(function (resolve, reject) {
        const script = document.createElement("script");
        script.src = "./panels.js";
        script.onload = function () {
          wasm_bindgen({ module_or_path: "./panels_bg.wasm" }).then(function () { resolve(wasm_bindgen); }, reject);
        };
        script.onerror = function () { reject(new Error("panels.js did not load")); };
        document.head.appendChild(script);
      });
      // A failed load may be tried again (a reload of the part, or another part).
      loaded.catch(function () { loaded = null; });
    }
    return loaded;
  }
  return {
    mount: function (name, element) {
      return load().then(function (m) { m.mount_panel(name, element); });
    },
  };
})();
