// The SPARQL page: YASGUI talking to this server's /sparql only, with the query library as tabs.
(function () {
  "use strict";
  const endpoint = new URL(window.location.pathname, window.location.origin).href;
  const examples = JSON.parse(document.getElementById("examples").textContent);
  // The "property" and "class" autocompleters ask Linked Open Vocabularies; keep the local ones.
  const completers = Yasgui.Yasqe.defaults.autocompleters;
  completers.splice(0, completers.length, ...completers.filter((name) => name !== "property" && name !== "class"));
  const yasgui = new Yasgui(document.getElementById("yasgui"), {
    requestConfig: { endpoint: endpoint, method: "POST" },
    endpointCatalogueOptions: { getData: () => [{ endpoint: endpoint }] },
    copyEndpointOnNewTab: true,
    persistenceId: null,
    autoAddOnInit: false,
    yasqe: { prefixCcApi: null },
  });
  examples.forEach((example, i) => {
    yasgui.addTab(i === 0, { name: example.name, yasqe: { value: example.query }, requestConfig: { endpoint: endpoint } });
  });
})();
