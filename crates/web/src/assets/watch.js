'use strict';
// The list of the match server's games (arena web --watch FILE), kept up to date over a
// WebSocket; each game opens in its game's page, live.
(function () {
  const body = document.querySelector('#watch-games tbody');
  const files = document.getElementById('files');
  const empty = document.getElementById('watch-empty');
  fetch('/api/games').then(r => r.json()).then(info => {
    const nav = document.getElementById('game-nav');
    for (const g of info.games) {
      const a = document.createElement('a');
      a.href = '/' + g.name;
      a.textContent = g.title;
      nav.append(a);
    }
  });
  function cell(text) {
    const td = document.createElement('td');
    td.textContent = text;
    return td;
  }
  function show(list) {
    files.textContent = 'Following ' + list.files.map(f =>
      f.path + (f.game ? ' (' + f.game + ')' : '') + (f.error ? ' — ' + f.error : '')).join(', ');
    body.replaceChildren();
    for (const g of list.games) {
      const tr = document.createElement('tr');
      tr.dataset.key = g.key;
      const link = document.createElement('td');
      const a = document.createElement('a');
      a.href = '/' + g.game + '?watch=' + encodeURIComponent(g.key);
      a.textContent = '#' + g.id;
      link.append(a);
      tr.append(link, cell(g.title),
        cell(g.names.map((n, i) => n + ' (' + g.letters[i] + ')').join(' – ')),
        cell(String(g.plies)),
        cell(g.over ? (g.result + ' (' + g.reason + ')') :
          (g.to_move === null ? 'starting' : 'playing: ' + g.letters[g.to_move] + ' to move')));
      if (!g.over) tr.className = 'live';
      body.append(tr);
    }
    empty.hidden = list.games.length > 0;
  }
  function connect() {
    const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/api/watch/socket');
    ws.onmessage = ev => {
      const m = JSON.parse(ev.data);
      if (m.type === 'games') show(m);
    };
    ws.onclose = () => setTimeout(connect, 1000);
  }
  fetch('/api/watch').then(r => r.ok ? r.json() : r.json().then(e => Promise.reject(e.error)))
    .then(list => { show(list); connect(); })
    .catch(e => { files.textContent = String(e); });
})();
