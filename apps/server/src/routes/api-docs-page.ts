/**
 * The API docs page: static HTML plus one script served by this server (the CSP allows scripts
 * from 'self' only, and the page must work offline). The script reads /api/openapi.json and
 * lists each operation with its parameters and body schema, building the DOM with textContent.
 */

export const DOCS_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Riffscribe API</title>
<style>
  body { font: 15px/1.5 system-ui, sans-serif; margin: 2rem auto; max-width: 60rem; padding: 0 1rem; color: #1d1d1f; }
  h1 { margin-bottom: 0; }
  .op { border: 1px solid #d0d0d7; border-radius: 6px; margin: 0.75rem 0; padding: 0.5rem 0.75rem; }
  .method { display: inline-block; min-width: 4.5rem; font-weight: 700; font-family: ui-monospace, monospace; }
  .path { font-family: ui-monospace, monospace; }
  .summary { color: #555; margin-left: 0.5rem; }
  table { border-collapse: collapse; margin: 0.5rem 0; }
  td, th { border: 1px solid #e0e0e6; padding: 0.15rem 0.5rem; text-align: left; font-size: 14px; }
  pre { background: #f5f5f7; padding: 0.5rem; overflow: auto; font-size: 13px; }
</style>
</head>
<body>
<h1>Riffscribe API</h1>
<p>Generated from the server's own schemas: <a href="/api/openapi.json">openapi.json</a> (OpenAPI 3.1).</p>
<p id="description"></p>
<main id="operations"><p>Loading...</p></main>
<script src="/api/docs/docs.js"></script>
</body>
</html>
`;

export const DOCS_PAGE_SCRIPT = `'use strict';
(function () {
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function typeOf(schema) {
    if (!schema) return '';
    if (schema.enum) return schema.enum.join(' | ');
    if (Array.isArray(schema.type)) return schema.type.join(' | ');
    return schema.type || (schema.anyOf ? 'one of several' : '');
  }
  function parameters(op) {
    var list = op.parameters || [];
    if (list.length === 0) return null;
    var table = el('table');
    var head = el('tr');
    ['name', 'in', 'required', 'type'].forEach(function (h) { head.appendChild(el('th', '', h)); });
    table.appendChild(head);
    list.forEach(function (p) {
      var row = el('tr');
      [p.name, p.in, p.required ? 'yes' : 'no', typeOf(p.schema)].forEach(function (v) {
        row.appendChild(el('td', '', String(v)));
      });
      table.appendChild(row);
    });
    return table;
  }
  function body(op) {
    var content = op.requestBody && op.requestBody.content;
    if (!content) return null;
    var box = el('details');
    box.appendChild(el('summary', '', 'Body: ' + Object.keys(content).join(', ')));
    Object.keys(content).forEach(function (type) {
      box.appendChild(el('pre', '', JSON.stringify(content[type].schema || {}, null, 2)));
    });
    return box;
  }
  function render(doc) {
    document.getElementById('description').textContent = (doc.info && doc.info.description) || '';
    var main = document.getElementById('operations');
    main.textContent = '';
    Object.keys(doc.paths || {}).sort().forEach(function (path) {
      var item = doc.paths[path];
      Object.keys(item).forEach(function (method) {
        var op = item[method];
        if (typeof op !== 'object' || op === null || !op.responses) return;
        var box = el('section', 'op');
        var title = el('div');
        title.appendChild(el('span', 'method', method.toUpperCase()));
        title.appendChild(el('span', 'path', path));
        if (op.summary) title.appendChild(el('span', 'summary', op.summary));
        box.appendChild(title);
        var params = parameters(op);
        if (params) box.appendChild(params);
        var payload = body(op);
        if (payload) box.appendChild(payload);
        main.appendChild(box);
      });
    });
  }
  fetch('/api/openapi.json')
    .then(function (res) {
      if (!res.ok) throw new Error('HTTP ' + res.status);
      return res.json();
    })
    .then(render)
    .catch(function (error) {
      document.getElementById('operations').textContent = 'Could not load the API description: ' + error.message;
    });
})();
`;
