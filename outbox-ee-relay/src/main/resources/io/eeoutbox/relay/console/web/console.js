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
    $('pending-total').textContent = '(' + o.backlog.pending + ', oldest ' + o.backlog.oldestPendingAgeSeconds + ' s)';
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

  function refresh() {
    request('GET', 'api/overview', undefined, function (status, json) {
      if (status === 200) {
        showOverview(json);
        $('refreshed').textContent = 'updated ' + new Date().toISOString();
      } else {
        failed('Reading the relay', status, json);
      }
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
