/* ee-outbox console. Plain ES5 (runs in any browser and in HtmlUnit); everything from the server is put into
   the page as text (textContent), never as HTML. Requests go to absolute URLs built from the page's origin and
   path, never from location.href, which may carry credentials. */
(function () {
  'use strict';
  var REFRESH_MS = 2000;
  var base = location.protocol + '//' + location.host + location.pathname.replace(/[^\/]*$/, '');
  var session = null;
  var cursors = [0];          // the "after" cursor of each page seen, for "First page"
  var nextAfter = null;
  var filter = {};
  var timer = null;

  function $(id) { return document.getElementById(id); }

  function request(method, path, body, done) {
    var x = new XMLHttpRequest();
    x.open(method, base + path, true);
    x.setRequestHeader('Accept', 'application/json');
    if (method === 'POST') {
      x.setRequestHeader('Content-Type', 'application/json');
      if (session) { x.setRequestHeader(session.csrfHeader, session.csrfToken); }
    }
    x.onreadystatechange = function () {
      if (x.readyState !== 4) { return; }
      var json = null;
      try { json = JSON.parse(x.responseText); } catch (e) { json = null; }
      done(x.status, json);
    };
    x.send(body === undefined ? null : JSON.stringify(body));
  }

  function say(text, isError) {
    var m = $('message');
    m.textContent = text;
    m.className = isError ? 'error' : '';
  }

  function failed(what, status, json) {
    say(what + ' failed (' + status + '): ' + (json && json.error ? json.error : 'no answer'), true);
  }

  function cell(row, text, cls) {
    var td = document.createElement('td');
    td.textContent = text === null || text === undefined ? '' : String(text);
    if (cls) { td.className = cls; }
    row.appendChild(td);
    return td;
  }

  function clear(tbody) {
    while (tbody.firstChild) { tbody.removeChild(tbody.firstChild); }
  }

  function query(extra) {
    var parts = [];
    var k;
    for (k in filter) {
      if (filter.hasOwnProperty(k) && filter[k]) { parts.push(encodeURIComponent(k) + '=' + encodeURIComponent(filter[k])); }
    }
    for (k in extra) {
      if (extra.hasOwnProperty(k)) { parts.push(encodeURIComponent(k) + '=' + encodeURIComponent(extra[k])); }
    }
    return parts.length ? '?' + parts.join('&') : '';
  }

  function showOverview(o) {
    var tbody = $('relays').tBodies[0];
    clear(tbody);
    for (var i = 0; i < o.relays.length; i++) {
      var r = o.relays[i];
      var row = document.createElement('tr');
      cell(row, r.name);
      cell(row, r.state, 'state-' + r.state).id = i === 0 ? 'relay-state' : '';
      cell(row, r.lastLoopAt);
      cell(row, r.lastBatchMillis === null ? '' : r.lastBatchMillis + ' ms', 'num');
      cell(row, r.eventsPerSecond, 'num');
      cell(row, r.counters.published, 'num');
      cell(row, r.counters.failed, 'num');
      cell(row, r.counters.deadLettered, 'num');
      cell(row, r.counters.lastError ? r.counters.lastErrorAt + ' ' + r.counters.lastError : '');
      cell(row, r.heldDestinations.join('\n'), 'held').id = i === 0 ? 'relay-held' : '';
      tbody.appendChild(row);
    }
    var slot = o.backlog.cdcSlot;
    $('pending-total').textContent = o.backlog.mode === 'cdc'
        ? '(does not apply in cdc mode: a CDC connector publishes; about ' + o.backlog.kept + ' rows kept for the retention)'
        : '(' + o.backlog.pending + ', oldest ' + o.backlog.oldestPendingAgeSeconds + ' s)';
    $('cdc-slot').hidden = !slot;
    $('cdc-slot').textContent = !slot ? '' : slot.present !== 'true' ? slot.note
        : 'CDC slot ' + slot.slot + ': ' + (slot.active === 'true' ? 'connector connected' : 'NO CONNECTOR CONNECTED')
          + ', lag ' + slot.lagBytes + ' bytes, WAL held back ' + slot.retainedWalBytes + ' bytes, wal_status '
          + slot.walStatus;
    $('scheduled-total').textContent = 'Scheduled (delayed, not yet due): ' + o.backlog.scheduled
        + (o.backlog.nextScheduledDueAt ? ', next due ' + o.backlog.nextScheduledDueAt : '');
    $('dead-total').textContent = '(' + o.backlog.dead + ' in all)';
    tbody = $('pending-types').tBodies[0];
    clear(tbody);
    for (i = 0; i < o.backlog.byEventType.length; i++) {
      var t = o.backlog.byEventType[i];
      row = document.createElement('tr');
      cell(row, t.eventType);
      cell(row, t.pending, 'num');
      cell(row, t.oldestAgeSeconds, 'num');
      tbody.appendChild(row);
    }
    tbody = $('failures').tBodies[0];
    clear(tbody);
    for (i = 0; i < o.recentFailures.length; i++) {
      var f = o.recentFailures[i];
      row = document.createElement('tr');
      cell(row, f.at);
      cell(row, f.eventId);
      cell(row, f.eventType);
      cell(row, f.aggregateId);
      cell(row, f.attempt + (f.deadLettered ? ' (dead letter)' : ''), 'num');
      cell(row, f.error);
      tbody.appendChild(row);
    }
    tbody = $('settings').tBodies[0];
    clear(tbody);
    for (var key in o.settings) {
      if (o.settings.hasOwnProperty(key)) {
        row = document.createElement('tr');
        cell(row, key);
        cell(row, o.settings[key]);
        tbody.appendChild(row);
      }
    }
  }

  function showDeadLetters(page) {
    var tbody = $('dead-letters').tBodies[0];
    clear(tbody);
    $('dead-matching').textContent = page.matching + ' match the filter';
    for (var i = 0; i < page.items.length; i++) {
      var d = page.items[i];
      var row = document.createElement('tr');
      row.setAttribute('data-id', d.id);
      cell(row, d.createdAt);
      cell(row, d.eventType);
      cell(row, d.aggregateType + ' ' + d.aggregateId);
      cell(row, d.attempts, 'num');
      cell(row, d.lastError);
      var pre = document.createElement('pre');
      pre.textContent = d.payload + (d.payloadCut ? ' …' : '');
      cell(row, '').appendChild(pre);
      var b = document.createElement('button');
      b.type = 'button';
      b.className = 'act retry-one';
      b.textContent = 'Retry';
      b.disabled = !session.canAct;
      b.setAttribute('data-id', d.id);
      b.onclick = retryOne;
      cell(row, '').appendChild(b);
      tbody.appendChild(row);
    }
    nextAfter = page.nextAfter;
    $('next-page').disabled = nextAfter === null;
  }

  // --- the chart of the last hour (api/history): inline SVG, no library; the caption is its text alternative ---
  var SVG = 'http://www.w3.org/2000/svg';
  var CW = 720, CH = 230, CL = 56, CR = 56, CT = 22, CB = 30;

  function svg(parent, name, attrs, text) {
    var e = document.createElementNS(SVG, name);
    for (var k in attrs) {
      if (attrs.hasOwnProperty(k)) { e.setAttribute(k, String(attrs[k])); }
    }
    if (text !== undefined) { e.textContent = text; }
    parent.appendChild(e);
    return e;
  }

  /** The smallest of 1, 2, 5 times a power of ten at or above v (1 for nothing). */
  function niceMax(v) {
    if (!(v > 0)) { return 1; }
    var p = Math.pow(10, Math.floor(Math.log(v) / Math.LN10));
    var m = [1, 2, 5, 10];
    for (var i = 0; i < m.length; i++) { if (m[i] * p >= v) { return m[i] * p; } }
    return 10 * p;
  }

  function short(v) {
    return v >= 10000 ? Math.round(v / 1000) + 'k' : String(Math.round(v * 100) / 100);
  }

  /**
   * One series as a path: a point is joined to the previous one only when both are known and at most 1.5 steps
   * apart (no line across a gap); a point alone is drawn as a dot. Returns how many points it drew.
   */
  function series(g, h, key, cls, x, y) {
    var d = [], drawn = 0, prev = null;
    for (var i = 0; i < h.points.length; i++) {
      var p = h.points[i], v = p[key];
      if (v === null || v === undefined) { prev = null; continue; }
      var t = Date.parse(p.at);
      var xy = x(t).toFixed(1) + ' ' + y(v).toFixed(1);
      d.push(prev !== null && t - prev <= 1.5 * h.stepSeconds * 1000 ? 'L' + xy : 'M' + xy + 'h0');
      prev = t;
      drawn++;
    }
    var path = svg(g, 'path', { 'class': cls, d: d.length ? d.join(' ') : 'M0 0' });
    path.setAttribute('data-points', String(drawn));
    return drawn;
  }

  function drawChart(h) {
    var root = $('chart-svg');
    while (root.firstChild) { root.removeChild(root.firstChild); }
    var end = Date.parse(h.now), start = end - h.windowSeconds * 1000;
    var pw = CW - CL - CR, ph = CH - CT - CB;
    var maxP = 0, maxR = 0, i, p;
    for (i = 0; i < h.points.length; i++) {
      p = h.points[i];
      if (p.pending !== null && p.pending > maxP) { maxP = p.pending; }
      if (p.publishedPerSecond !== null && p.publishedPerSecond > maxR) { maxR = p.publishedPerSecond; }
    }
    maxP = niceMax(maxP);
    maxR = niceMax(maxR);
    function x(t) { return CL + Math.max(0, t - start) / (end - start) * pw; }
    function yP(v) { return CT + ph - v / maxP * ph; }
    function yR(v) { return CT + ph - v / maxR * ph; }
    for (i = 0; i < h.points.length; i++) {
      p = h.points[i];
      if (p.state !== 'running') {
        var t = Date.parse(p.at), from = x(t - h.stepSeconds * 1000);
        svg(root, 'rect', { 'class': 'band band-' + p.state, x: from.toFixed(1), y: CT, width: (x(t) - from).toFixed(1), height: ph });
      }
    }
    for (i = 0; i <= 4; i++) {
      var gy = CT + ph - i * ph / 4, gx = CL + i * pw / 4;
      svg(root, 'line', { 'class': 'grid', x1: CL, y1: gy, x2: CL + pw, y2: gy });
      svg(root, 'text', { 'class': 'end', x: CL - 6, y: gy + 4 }, short(maxP * i / 4));
      svg(root, 'text', { x: CL + pw + 6, y: gy + 4 }, short(maxR * i / 4));
      svg(root, 'text', { 'class': 'middle', x: gx, y: CH - 10 },
        i === 4 ? 'now' : '-' + Math.round(h.windowSeconds / 60 * (4 - i) / 4) + ' min');
    }
    svg(root, 'line', { 'class': 'axis', x1: CL, y1: CT, x2: CL, y2: CT + ph });
    svg(root, 'line', { 'class': 'axis', x1: CL + pw, y1: CT, x2: CL + pw, y2: CT + ph });
    svg(root, 'line', { 'class': 'axis', x1: CL, y1: CT + ph, x2: CL + pw, y2: CT + ph });
    svg(root, 'text', { 'class': 'end', x: CL, y: CT - 10 }, 'pending');
    svg(root, 'text', { 'class': 'end', x: CW - 2, y: CT - 10 }, 'published/s');
    series(root, h, 'pending', 'pending', x, yP);
    series(root, h, 'publishedPerSecond', 'rate', x, yR);
    var n = h.points.length;
    root.setAttribute('data-first-at', n ? h.points[0].at : '');
    root.setAttribute('data-last-at', n ? h.points[n - 1].at : '');
    $('chart-caption').textContent = caption(h);
  }

  function caption(h) {
    var n = h.points.length;
    if (!n) { return 'no points yet (one every ' + h.stepSeconds + ' s).'; }
    var last = h.points[n - 1], maxP = null;
    for (var i = 0; i < n; i++) {
      var v = h.points[i].pending;
      if (v !== null && (maxP === null || v > maxP)) { maxP = v; }
    }
    return 'latest at ' + last.at + ': ' + (last.pending === null ? 'pending unknown' : last.pending + ' pending') + ', '
      + (last.publishedPerSecond === null ? 'rate unknown' : last.publishedPerSecond + ' published/s') + ', relay '
      + last.state + '; ' + n + ' points since ' + h.points[0].at
      + (maxP === null ? '' : ', at most ' + maxP + ' pending') + '.';
  }

  // --- every relay of the outbox (api/fleet, schema V13), as this relay's last heartbeat read it ---
  function showFleet(f) {
    var tbody = $('fleet').tBodies[0];
    clear(tbody);
    $('fleet-none').hidden = f.member;
    $('fleet-state').textContent = !f.member ? '' : f.paused
      ? '(paused by ' + f.changedBy + ' at ' + f.changedAt + ')'
      : f.changedBy ? '(resumed by ' + f.changedBy + ' at ' + f.changedAt + ')' : '';
    for (var i = 0; i < f.relays.length; i++) {
      var r = f.relays[i];
      var row = document.createElement('tr');
      if (r.missing) { row.className = 'missing'; }
      cell(row, r.server);
      cell(row, r.application);
      cell(row, r.name);
      cell(row, r.self ? 'this relay' : r.local ? 'this server' : 'remote');
      cell(row, r.state, 'state-' + r.state);
      cell(row, r.seenSecondsAgo + ' s ago');
      cell(row, r.published, 'num');
      cell(row, r.failed, 'num');
      cell(row, r.deadLettered, 'num');
      cell(row, r.lastError);
      tbody.appendChild(row);
    }
  }

  function fleetSaid(r) {
    return 'Fleet ' + (r.paused ? 'paused' : 'resumed') + ' (epoch ' + r.epoch + '): acknowledged by '
      + (r.acknowledged.length ? r.acknowledged.join(', ') : 'no relay')
      + (r.lagging.length ? '; not acknowledged in time by ' + r.lagging.join(', ') : '') + '.';
  }

  function refresh() {
    request('GET', 'api/overview', undefined, function (status, json) {
      if (status === 200) {
        showOverview(json);
        $('refreshed').textContent = 'updated ' + new Date().toISOString();
      } else {
        failed('Reading the relay', status, json);
      }
    });
    request('GET', 'api/fleet', undefined, function (status, json) {
      if (status === 200) { showFleet(json); } else { failed('Reading the fleet', status, json); }
    });
    request('GET', 'api/history', undefined, function (status, json) {
      if (status === 200) { drawChart(json); } else { failed('Reading the history', status, json); }
    });
    request('GET', 'api/dead-letters' + query({ after: cursors[cursors.length - 1] }), undefined, function (status, json) {
      if (status === 200) { showDeadLetters(json); } else { failed('Reading the dead letters', status, json); }
    });
  }

  function act(path, body, what) {
    request('POST', path, body, function (status, json) {
      if (status === 200) {
        say(what(json), false);
        refresh();
      } else {
        failed('The action', status, json);
      }
    });
  }

  function retryOne(e) {
    var id = e.target.getAttribute('data-id');
    act('api/dead-letters/' + encodeURIComponent(id) + '/retry', {}, function () { return 'Dead letter ' + id + ' retried.'; });
  }

  function readFilter() {
    var names = ['eventType', 'aggregateType', 'aggregateId', 'createdFrom', 'createdTo', 'errorText'];
    var f = {};
    for (var i = 0; i < names.length; i++) {
      var v = $('f-' + names[i]).value.replace(/^\s+|\s+$/g, '');
      if (v) { f[names[i]] = v; }
    }
    return f;
  }

  function wire() {
    $('pause').onclick = function () { act('api/relay/pause', {}, function (r) { return 'Relay ' + r.name + ' is ' + r.state + '.'; }); };
    $('resume').onclick = function () { act('api/relay/resume', {}, function (r) { return 'Relay ' + r.name + ' is ' + r.state + '.'; }); };
    $('pause-all').onclick = function () { act('api/fleet/pause-all', {}, fleetSaid); };
    $('resume-all').onclick = function () { act('api/fleet/resume-all', {}, fleetSaid); };
    $('run-now').onclick = function () { act('api/relay/run-now', {}, function (r) { return 'Relay ' + r.name + ' runs now.'; }); };
    $('purge').onclick = function () {
      act('api/purge', { olderThan: $('purge-age').value }, function (r) { return r.deleted + ' published rows deleted.'; });
    };
    $('filter').onsubmit = function (e) {
      e.preventDefault();
      filter = readFilter();
      cursors = [0];
      $('confirm').hidden = true;
      refresh();
      return false;
    };
    $('retry-matching').onclick = function () {
      filter = readFilter();
      request('GET', 'api/dead-letters/count' + query({}), undefined, function (status, json) {
        if (status !== 200) { failed('Counting the dead letters', status, json); return; }
        $('confirm-text').textContent = json.matching + ' dead letters match this filter. Retry them?';
        $('confirm').setAttribute('data-matching', String(json.matching));
        $('confirm').hidden = false;
      });
    };
    $('confirm-no').onclick = function () { $('confirm').hidden = true; };
    $('confirm-yes').onclick = function () {
      $('confirm').hidden = true;
      act('api/dead-letters/retry', filter, function (r) { return r.retried + ' dead letters retried.'; });
    };
    $('first-page').onclick = function () { cursors = [0]; refresh(); };
    $('next-page').onclick = function () {
      if (nextAfter !== null) { cursors.push(nextAfter); refresh(); }
    };
  }

  function start() {
    request('GET', 'api/session', undefined, function (status, json) {
      if (status !== 200) { failed('Signing in', status, json); return; }
      session = json;
      $('user').textContent = json.user;
      $('role').textContent = json.role;
      $('read-only').hidden = json.canAct;
      var buttons = document.querySelectorAll('button.act');
      for (var i = 0; i < buttons.length; i++) { buttons[i].disabled = !json.canAct; }
      wire();
      refresh();
      timer = setInterval(refresh, REFRESH_MS);
    });
  }

  start();
}());
