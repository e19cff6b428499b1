"""``kg serve``: the built graph as a SPARQL endpoint, Linked Data pages and a DTS text API.

The shape follows Datasette: :mod:`kg.serve.app` assembles the routes; one module per kind of
endpoint or page (:mod:`kg.serve.sparql`, :mod:`kg.serve.linked_data`, :mod:`kg.serve.dts`);
Jinja templates in ``templates/`` and vendored front-end files in ``static/`` beside them.
"""
